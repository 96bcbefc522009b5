"""Fit an RBF-feature regression in float32 with Adam; x64 is on because the evaluation code needs float64."""

import jax

jax.config.update("jax_enable_x64", True)  # the evaluation code needs float64 reductions

import jax.numpy as jnp
import numpy as np

from optim import Adam

optimizer = Adam(learning_rate=0.05)


def features(x, params):
    return jnp.exp(-((x[:, None] - params["centers"]) ** 2) / params["width"] ** 2)


def loss_fn(params, x, y):
    pred = features(x, params) @ params["weights"]
    return jnp.mean((pred - y) ** 2)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    params, opt_state = optimizer.apply_gradient(params, grads, opt_state)
    return params, opt_state, loss


def main(n_steps=30, seed=0):
    rng = np.random.default_rng(seed)
    x = jnp.asarray(rng.uniform(-3, 3, 128).astype(np.float32))
    y = jnp.sin(x) + 0.05 * jnp.asarray(rng.standard_normal(128).astype(np.float32))
    params = {
        "centers": jnp.linspace(-3, 3, 12, dtype=jnp.float32),
        "width": jnp.ones((), jnp.float32),
        "weights": jnp.zeros(12, jnp.float32),
    }
    opt_state = optimizer.init(params)
    for _ in range(n_steps):
        params, opt_state, loss = train_step(params, opt_state, x, y)
    print(f"loss {float(loss):.4f}, weights dtype {params['weights'].dtype}")


if __name__ == "__main__":
    main()
