"""A backtracking line search whose state is carried between jitted updates."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class SearchState(NamedTuple):
    step_size: jax.Array
    value: jax.Array
    accepted: jax.Array


def init_state(params):
    # the state follows the parameters' precision
    return SearchState(
        step_size=jnp.ones((), params.dtype),
        value=jnp.full((), jnp.inf, params.dtype),
        accepted=jnp.zeros((), jnp.int32),
    )


@jax.jit
def update(params, grad, state, value):
    shrink = jnp.where(value > state.value, 0.5, 1.0).astype(params.dtype)
    step = state.step_size * shrink
    new_params = params - step * grad
    return new_params, SearchState(step, value.astype(state.value.dtype), state.accepted + 1)
