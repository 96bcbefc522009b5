"""Heavy-ball momentum over a stream of gradients, carried as a (params, velocity) pair."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Carry(NamedTuple):
    params: jax.Array
    velocity: jax.Array


@jax.jit
def momentum_step(carry, grad):
    params, velocity = carry
    velocity = 0.9 * velocity + grad
    return params - 0.1 * velocity, velocity  # expect: RTL403


def optimise(params, grads):
    carry = Carry(params, jnp.zeros_like(params))  # expect: RTL403
    for grad in grads:
        carry = momentum_step(carry, grad)
    return carry


if __name__ == "__main__":
    grads = [jnp.full(3, 0.1 * k) for k in range(5)]
    print(optimise(jnp.ones(3), grads))
