"""Negative: donated buffers. The probe must neither consume the donated argument nor report a
re-trace for a call that reuses the cached trace."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def accumulate(total, x):  # site: accumulate
    return total + x


def main():
    total = jnp.zeros(8)
    x = jnp.ones(8)
    for _ in range(4):
        total = accumulate(
            total, x
        )  # finding: RTL102 site=accumulate param=total expect=not re-traced
    print("donated done", float(total.sum()))


if __name__ == "__main__":
    main()
