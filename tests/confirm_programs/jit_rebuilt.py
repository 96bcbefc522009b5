"""RTL301 positive: jax.jit applied to a fresh lambda inside the loop traces every iteration."""

import jax
import jax.numpy as jnp


def main():
    x = jnp.ones(4)
    for step in range(3):
        f = jax.jit(lambda v: v * 2 + 1)  # site: f  # finding: RTL301 site=f expect=confirmed
        x = f(x) / (step + 1)
    print("jit_rebuilt done")


if __name__ == "__main__":
    main()
