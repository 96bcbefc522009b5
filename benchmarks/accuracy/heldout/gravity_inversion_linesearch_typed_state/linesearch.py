"""Steepest descent with an Armijo backtracking line search, state carried between steps."""

from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class BacktrackState(NamedTuple):
    step_size: jnp.ndarray  # accepted step of the last iteration
    value: jnp.ndarray  # objective at the current iterate
    num_linesearch_steps: jnp.ndarray  # total backtracking trials so far


def init_backtrack_state(params, initial_step):
    # Same dtypes as update() returns, so the jitted step sees one signature.
    dtype = params.dtype
    return BacktrackState(
        step_size=jnp.asarray(initial_step, dtype=dtype),
        value=jnp.full((), jnp.inf, dtype=dtype),
        num_linesearch_steps=jnp.asarray(0, dtype=jnp.int32),
    )


def objective(rho, sens, d_obs, reg):
    residual = sens @ rho - d_obs
    return 0.5 * jnp.sum(residual**2) + 0.5 * reg * jnp.sum(rho**2)


@partial(jax.jit, static_argnames=("max_backtracks",))
def descent_step(rho, state, sens, d_obs, reg, max_step, max_backtracks=20):
    value, grad = jax.value_and_grad(objective)(rho, sens, d_obs, reg)
    slope = -jnp.sum(grad**2)
    t0 = jnp.minimum(state.step_size * 2.0, max_step)

    def not_sufficient(carry):
        t, k = carry
        trial = objective(rho - t * grad, sens, d_obs, reg)
        return (trial > value + 1e-4 * t * slope) & (k < max_backtracks)

    def shrink(carry):
        t, k = carry
        return t * 0.5, k + 1

    t, k = jax.lax.while_loop(not_sufficient, shrink, (t0, 0))
    new_rho = rho - t * grad
    new_state = BacktrackState(
        step_size=t,
        value=objective(new_rho, sens, d_obs, reg),
        num_linesearch_steps=state.num_linesearch_steps + k,
    )
    return new_rho, new_state
