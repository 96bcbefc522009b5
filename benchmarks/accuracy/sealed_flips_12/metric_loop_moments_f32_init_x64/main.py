"""Fit a small double-precision regression with a hand-written training loop."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402

from loop import TrainLoop  # noqa: E402
from optim import adam  # noqa: E402


def dataset(n_batches=5, batch=32, d_in=6):
    w_true = jnp.linspace(-1.0, 1.0, d_in)
    for i in range(n_batches):
        x = jax.random.normal(jax.random.PRNGKey(i), (batch, d_in))
        yield x, x @ w_true + 0.01 * jax.random.normal(jax.random.PRNGKey(100 + i), (batch,))


def main():
    params = {"w": jnp.zeros((6,)), "b": jnp.zeros(())}
    loop = TrainLoop(adam(learning_rate=0.05))
    params, history = loop.run(params, dataset())
    print("w", jnp.round(params["w"], 3), "dtype", params["w"].dtype)
    print("losses", [round(float(v), 5) for v in history])


if __name__ == "__main__":
    main()
