"""AdamW with injected hyperparameters and low-precision moments, written out by hand."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class AdamWState(NamedTuple):
    count: jax.Array
    mu: dict
    nu: dict
    hyperparams: dict


def inject_hyperparams(learning_rate=3e-3, b1=0.9, b2=0.999, eps=1e-8, weight_decay=1e-4):
    # Stored in the state (float32 arrays) so a schedule can change them without a re-trace.
    values = dict(learning_rate=learning_rate, b1=b1, b2=b2, eps=eps, weight_decay=weight_decay)
    return {name: jnp.asarray(value, dtype=jnp.float32) for name, value in values.items()}


def init_state(params, moment_dtype=jnp.bfloat16, **hyperparams):
    # The moments are kept in bfloat16 to halve the optimizer's memory.
    zeros = lambda p: jnp.zeros(p.shape, dtype=moment_dtype)  # expect: RTL402
    return AdamWState(
        count=jnp.zeros((), jnp.int32),
        mu=jax.tree_util.tree_map(zeros, params),
        nu=jax.tree_util.tree_map(zeros, params),
        hyperparams=inject_hyperparams(**hyperparams),
    )


def _first_moment(m, g, b1):
    return b1 * m + (1.0 - b1) * g  # expect: RTL402


def _second_moment(v, g, b2):
    return b2 * v + (1.0 - b2) * jnp.square(g)  # expect: RTL402


def adamw_update(grads, state, params):
    hp = state.hyperparams
    count = state.count + 1
    mu = jax.tree_util.tree_map(lambda m, g: _first_moment(m, g, hp["b1"]), state.mu, grads)
    nu = jax.tree_util.tree_map(lambda v, g: _second_moment(v, g, hp["b2"]), state.nu, grads)
    c1 = 1.0 - hp["b1"] ** count
    c2 = 1.0 - hp["b2"] ** count

    def new_param(p, m, v):
        step = (m / c1) / (jnp.sqrt(v / c2) + hp["eps"]) + hp["weight_decay"] * p
        return p - hp["learning_rate"] * step.astype(p.dtype)

    params = jax.tree_util.tree_map(new_param, params, mu, nu)
    return params, AdamWState(count, mu, nu, hp)
