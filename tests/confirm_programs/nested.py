"""Negative: a jit function called inside another one and then on its own with the same shapes.
The top-level call after nested use is a dispatch miss only: it reuses the trace made inside
`outer`, so `inner` was only ever traced inside another jit function."""

import jax
import jax.numpy as jnp


@jax.jit
def inner(x):  # site: inner
    return jnp.sin(x) * 3


@jax.jit
def outer(x):  # site: outer
    return inner(x) + 1


def main():
    x = jnp.ones(6)
    for _ in range(3):
        outer(x)  # finding: RTL101 site=outer param=x expect=not re-traced
    for _ in range(2):
        inner(x)  # finding: RTL101 site=inner param=x expect=inconclusive
    print("nested done")


if __name__ == "__main__":
    main()
