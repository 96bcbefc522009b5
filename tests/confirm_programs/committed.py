"""Negative: committed (device_put) and uncommitted arrays of one shape alternate: a dispatch
miss, not a re-trace."""

import jax
import jax.numpy as jnp


@jax.jit
def double(x):  # site: double
    return x * 2


def main():
    device = jax.devices()[0]
    plain = jnp.ones(5)
    placed = jax.device_put(jnp.ones(5), device)
    for i in range(4):
        double(
            placed if i % 2 else plain
        )  # finding: RTL403 site=double param=x expect=not re-traced
    print("committed done")


if __name__ == "__main__":
    main()
