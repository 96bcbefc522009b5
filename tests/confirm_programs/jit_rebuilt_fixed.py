"""RTL301 negative: jax.jit re-applied to the same module-level function shares its caches
(slower dispatch, but no re-trace)."""

import jax
import jax.numpy as jnp


def affine(v):
    return v * 2.0 + 1.0


def main():
    x = jnp.ones(4)
    for step in range(3):
        f = jax.jit(affine)  # site: f  # finding: RTL301 site=f expect=not re-traced
        x = f(x) / (step + 1)
    print("jit_rebuilt_fixed done")


if __name__ == "__main__":
    main()
