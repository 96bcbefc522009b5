"""RTL401 positive: the same parameter gets a Python float, then a float32 array."""

import jax
import jax.numpy as jnp


@jax.jit
def scale(x, factor):  # site: scale
    return x * factor


def main():
    x = jnp.ones(3)
    scale(x, 0.5)
    scale(x, 0.25)  # same weak type: no re-trace
    scale(x, jnp.float32(0.5))  # finding: RTL401 site=scale param=factor expect=confirmed
    print("weak_type done")


if __name__ == "__main__":
    main()
