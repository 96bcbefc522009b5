"""Negative: numpy and jax inputs with the same shape and dtype alternate. JAX's C++ dispatch
cache misses on the switch, but nothing re-traces."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def normalise(x):  # site: normalise
    return (x - x.mean()) / (x.std() + 1e-6)


def main():
    host = np.arange(12, dtype=np.float32)
    device = jnp.asarray(host)
    for i in range(4):
        arg = (
            host if i % 2 else device
        )  # finding: RTL402 site=normalise param=x expect=not re-traced
        normalise(arg)
    normalise(np.arange(12, dtype=np.float64))  # f64 is squashed to f32 without x64
    print("numpy_input done")


if __name__ == "__main__":
    main()
