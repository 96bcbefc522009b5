"""The chunk start is computed into a local first: the last chunk is still short."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def train_step(params, xb):
    return params - 0.1 * jnp.mean(xb, axis=0)


def epoch_by_count(params, x, batch_size):
    num_batches = int(np.ceil(len(x) / batch_size))
    for b in range(num_batches):
        lo = b * batch_size
        params = train_step(params, x[lo : lo + batch_size])  # expect: RTL103
    return params


def epoch_by_stride(params, x, batch_size):
    for b in range(0, len(x), batch_size):
        hi = b + batch_size
        params = train_step(params, x[b:hi])  # expect: RTL103
    return params


def main():
    x = np.ones((1000, 8), dtype=np.float32)
    params = jnp.zeros(8)
    params = epoch_by_count(params, x, 64)
    print(epoch_by_stride(params, x, 64))


if __name__ == "__main__":
    main()
