"""Negative: jax.debug.print makes every call take JAX's slow dispatch path (no_tracing around
the real call would raise each time), but the function is traced once."""

import jax
import jax.numpy as jnp


@jax.jit
def loss(w):  # site: loss
    value = jnp.sum(w**2)
    jax.debug.print("loss {v}", v=value)
    return value


def main():
    w = jnp.ones(3)
    for _ in range(3):
        w = w * 0.5
        loss(w)  # finding: RTL101 site=loss param=w expect=not re-traced
    print("debug_print done")


if __name__ == "__main__":
    main()
