"""RTL201 positive: a static argument fed from the loop counter re-traces each iteration."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("n_layers",))
def forward(x, n_layers):  # site: forward
    for _ in range(n_layers):
        x = jnp.tanh(x)
    return x


def main():
    x = jnp.ones(8)
    for depth in range(1, 4):
        x = forward(
            x, n_layers=depth
        )  # finding: RTL201 site=forward param=n_layers expect=confirmed
    print("static_value done")


if __name__ == "__main__":
    main()
