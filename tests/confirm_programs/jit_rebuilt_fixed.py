"""RTL301 negative: jax.jit re-applied to the same module-level function shares its caches
(slower dispatch, but no re-trace)."""

import jax
import jax.numpy as jnp


def affine(v):
    return v * 2.0 + 1.0


def main():
    x = jnp.ones(4)
    for step in range(3):
        scaled = jax.jit(affine)(
            x
        )  # site: rebuilt  # finding: RTL301 site=rebuilt expect=not re-traced
        x = scaled / (step + 1)
    print("jit_rebuilt_fixed done")


if __name__ == "__main__":
    main()
