"""RTL204 positive: a lambda made per call as a static argument is a new cache key each time."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("activation",))
def layer(x, activation):  # site: layer
    return activation(x * 2.0)


def main():
    x = jnp.linspace(-1.0, 1.0, 8)
    for _ in range(3):
        x = layer(
            x, activation=lambda v: jnp.maximum(v, 0.0)
        )  # finding: RTL204 site=layer param=activation expect=confirmed
    print("lambda_static done")


if __name__ == "__main__":
    main()
