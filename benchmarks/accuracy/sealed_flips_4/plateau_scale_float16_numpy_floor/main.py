"""Fine-tune a float16 logistic-regression head with a plateau-reduced learning rate."""

import jax
import jax.numpy as jnp
import numpy as np

from plateau import ReduceOnPlateau

LEARNING_RATE = 0.5
schedule = ReduceOnPlateau(factor=0.5, patience=3, min_scale=np.float32(1e-2))


def loss_fn(params, x, y):
    logits = (x @ params["w"] + params["b"]).astype(jnp.float32)
    return jnp.mean(jnp.logaddexp(0.0, logits) - y * logits)


@jax.jit
def train_step(params, plateau, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    step = LEARNING_RATE * plateau.scale
    params = jax.tree_util.tree_map(lambda p, g: p - (step * g).astype(p.dtype), params, grads)
    return params, schedule.update(plateau, loss), loss


def main(n_steps=30, seed=0):
    rng = np.random.default_rng(seed)
    x = jnp.asarray(rng.standard_normal((256, 8)), dtype=jnp.float16)
    y = (x[:, 0] - x[:, 1] > 0).astype(jnp.float32)[:, None]
    params = {"w": jnp.zeros((8, 1), jnp.float16), "b": jnp.zeros((1,), jnp.float16)}
    plateau = schedule.init(params)
    for _ in range(n_steps):
        params, plateau, loss = train_step(params, plateau, x, y)
    print(f"loss {float(loss):.4f}, learning-rate scale {float(plateau.scale):.3f}")


if __name__ == "__main__":
    main()
