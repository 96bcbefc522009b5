"""Gradient accumulation over micro-batches, in the style of a MultiSteps optimizer wrapper.

The weights are kept in bfloat16 to save memory; gradients are taken through a float32 copy of them.
"""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class AccumState(NamedTuple):
    grads: dict
    loss: jax.Array
    micro_step: jax.Array


def init_accumulator(params):
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)  # expect: RTL402
    return AccumState(zeros, jnp.zeros((), jnp.float32), jnp.zeros((), jnp.int32))


def add_micro_batch(state, grads, loss):
    summed = jax.tree_util.tree_map(lambda acc, g: acc + g, state.grads, grads)  # expect: RTL402
    return AccumState(summed, state.loss + loss, state.micro_step + 1)


def averaged(state):
    n = state.micro_step.astype(jnp.float32)
    return jax.tree_util.tree_map(lambda g: g / n, state.grads), state.loss / n
