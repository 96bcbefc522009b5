"""RTL201 negative: the static argument is the same every iteration (passed by keyword)."""

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
    depth = 3
    for _ in range(4):
        x = forward(
            x, n_layers=depth
        )  # finding: RTL201 site=forward param=n_layers expect=not re-traced
    print("static_value_fixed done")


if __name__ == "__main__":
    main()
