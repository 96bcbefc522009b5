"""Smooth a stream of float16 sensor readings chunk by chunk."""

import numpy as np
import jax.numpy as jnp

from smoother import StreamSmoother


def chunks(n_chunks=4, size=16):
    rng = np.random.default_rng(1)
    for k in range(n_chunks):
        yield jnp.asarray(k + rng.normal(size=size), dtype=jnp.float16)


def main():
    smoother = StreamSmoother()
    for chunk in chunks():
        print(float(smoother.push(chunk)[-1]))


if __name__ == "__main__":
    main()
