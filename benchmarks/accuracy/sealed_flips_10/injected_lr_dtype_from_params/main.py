"""Fine-tune a bfloat16 linear probe with a warmup-cosine learning rate."""

import jax
import jax.numpy as jnp

from inject import InjectedSGD, warmup_cosine

optimizer = InjectedSGD(warmup_cosine(peak=0.1, warmup=3, total=8))


def loss_fn(params, x, y):
    logits = (x.astype(jnp.bfloat16) @ params["w"]).astype(jnp.float32)
    return jnp.mean((logits - y) ** 2)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state)
    params = jax.tree_util.tree_map(lambda p, u: p + u, params, updates)
    return params, opt_state, loss


def main():
    key = jax.random.PRNGKey(1)
    x = jax.random.normal(key, (32, 8))
    y = x @ jnp.linspace(-1.0, 1.0, 8)[:, None]
    params = {"w": jnp.zeros((8, 1), jnp.bfloat16)}
    opt_state = optimizer.init(params)
    for step in range(6):
        params, opt_state, loss = train_step(params, opt_state, x, y)
        lr = opt_state.hyperparams["learning_rate"]
        print(f"step {step}: loss {float(loss):.4f} lr {float(lr):.4f}")


if __name__ == "__main__":
    main()
