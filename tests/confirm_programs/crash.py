"""Re-traces, then crashes halfway: the report must still hold what happened before."""

import jax
import jax.numpy as jnp


@jax.jit
def step(x):  # site: step
    return x + 1


@jax.jit
def never_called(x):  # site: never_called
    return x


def main():
    step(jnp.ones(2))
    step(jnp.ones(3))  # finding: RTL105 site=step param=x expect=confirmed
    raise RuntimeError("the data loader fell over")
    never_called(jnp.ones(2))  # finding: RTL101 site=never_called param=x expect=not reached


if __name__ == "__main__":
    main()
