"""A small gradient-descent solver with a backtracking line search (Armijo) and a
Barzilai-Borwein guess for the next trial step.  The solver state is carried
through the jitted fit step of main.py."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class SearchState(NamedTuple):
    stepsize: jax.Array  # trial step for the next iteration
    num_iter: jax.Array
    value: jax.Array
    grad_norm: jax.Array


def init_search_state(loss_fn, params, *data):
    value, grad = jax.value_and_grad(loss_fn)(params, *data)
    return SearchState(
        stepsize=1.0,  # expect: RTL401
        num_iter=jnp.zeros((), jnp.int32),
        value=value,
        grad_norm=jnp.linalg.norm(grad),
    )


def backtrack(loss_fn, params, grad, value, t0, data, shrink=0.5, c1=1e-4, n_trials=12):
    """Try t0, t0*shrink, t0*shrink**2, ... at once and keep the largest step that
    meets the Armijo sufficient-decrease condition (the smallest one otherwise)."""
    slope = -jnp.vdot(grad, grad)
    trials = t0 * shrink ** jnp.arange(n_trials)
    values = jax.vmap(lambda t: loss_fn(params - t * grad, *data))(trials)
    ok = values <= value + c1 * trials * slope
    first = jnp.where(ok.any(), jnp.argmax(ok), n_trials - 1)
    return trials[first]


def barzilai_borwein(params_old, params_new, grad_old, grad_new, lo=1e-4, hi=10.0):
    s = params_new - params_old
    y = grad_new - grad_old
    return jnp.clip(jnp.vdot(s, s) / (jnp.abs(jnp.vdot(s, y)) + 1e-12), lo, hi)
