"""Chunk loops whose range ends early enough that every chunk is full: no short last batch.

`range(0, n - bs + 1, bs)` and `range(0, n - bs, bs)` both stop while a whole chunk still fits
(the last start s satisfies s + bs <= n), so x[s:s + bs] always has bs rows.
"""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(params, batch):
    return params - 0.1 * jnp.mean(batch, axis=0)


def epoch_inclusive(params, data, batch_size):
    n = data.shape[0]
    for start in range(0, n - batch_size + 1, batch_size):
        params = train_step(params, data[start : start + batch_size])
    return params


def epoch_exclusive(params, data, batch_size):
    for start in range(0, len(data) - batch_size, batch_size):
        params = train_step(params, data[start : start + batch_size])
    return params


def main():
    params = jnp.zeros(8)
    data = jnp.ones((100, 8))
    params = epoch_inclusive(params, data, 32)
    params = epoch_exclusive(params, data, 32)
    print(params)


if __name__ == "__main__":
    main()
