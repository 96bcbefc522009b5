"""RTL204 negative: the activation is a module-level function, the same object every call."""

from functools import partial

import jax
import jax.numpy as jnp


def relu(v):
    return jnp.maximum(v, 0.0)


@partial(jax.jit, static_argnames=("activation",))
def layer(x, activation):  # site: layer
    return activation(x * 2.0)


def main():
    x = jnp.linspace(-1.0, 1.0, 8)
    for _ in range(3):
        x = layer(
            x, activation=relu
        )  # finding: RTL204 site=layer param=activation expect=not re-traced
    print("lambda_static_fixed done")


if __name__ == "__main__":
    main()
