"""Iterate a map by re-applying jax.jit to a module-level function in the loop."""

import jax
import jax.numpy as jnp


def logistic_map(x, r):
    return r * x * (1.0 - x)


def orbit(x0, r, steps=6):
    x = jnp.float32(x0)
    out = []
    for _ in range(steps):
        x = jax.jit(logistic_map)(x, r)
        out.append(float(x))
    return out


if __name__ == "__main__":
    print(orbit(0.2, 3.7))
