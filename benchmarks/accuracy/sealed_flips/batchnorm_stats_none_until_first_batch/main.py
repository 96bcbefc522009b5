"""Train a one-layer regressor with batch norm in front."""

import jax
import jax.numpy as jnp
import numpy as np

from norm import init_stats, normalise


def loss_fn(w, x, y, stats):
    h, new_stats = normalise(x, stats)
    return jnp.mean((h @ w - y) ** 2), new_stats


@jax.jit
def train_step(w, stats, x, y):
    (loss, new_stats), grad = jax.value_and_grad(loss_fn, has_aux=True)(w, x, y, stats)
    return w - 0.1 * grad, new_stats, loss


def batches(n=5, size=32, features=4):
    rng = np.random.default_rng(0)
    for _ in range(n):
        x = rng.normal(size=(size, features)).astype(np.float32)
        yield x, x.sum(axis=1)


def main():
    w = jnp.zeros(4, jnp.float32)
    stats = init_stats()
    for x, y in batches():
        w, stats, loss = train_step(w, stats, x, y)
        print(float(loss))


if __name__ == "__main__":
    main()
