"""Gradient accumulation over k mini-steps around Adam, skipping mini-steps whose gradients are not finite."""

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class AdamState(NamedTuple):
    count: jax.Array
    mu: Any
    nu: Any


class MultiStepsState(NamedTuple):
    mini_step: jax.Array
    gradient_step: jax.Array
    acc_grads: Any
    inner: AdamState
    skip_state: Any


def adam_init(params):
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    return AdamState(count=jnp.zeros((), jnp.int32), mu=zeros, nu=zeros)


def adam_update(grads, state, lr=1e-2, b1=0.9, b2=0.999, eps=1e-8):
    count = state.count + 1
    mu = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, state.mu, grads)
    nu = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, state.nu, grads)
    c1, c2 = 1 - b1**count, 1 - b2**count
    updates = jax.tree_util.tree_map(lambda m, v: -lr * (m / c1) / (jnp.sqrt(v / c2) + eps), mu, nu)
    return updates, AdamState(count=count, mu=mu, nu=nu)


def _skip_state(grads):
    bad = sum(jnp.sum(~jnp.isfinite(g)) for g in jax.tree_util.tree_leaves(grads))
    return {"should_skip": bad > 0, "num_not_finite": bad.astype(jnp.int32)}


def multi_steps_init(params):
    return MultiStepsState(
        mini_step=jnp.zeros((), jnp.int32),
        gradient_step=jnp.zeros((), jnp.int32),
        acc_grads=jax.tree_util.tree_map(jnp.zeros_like, params),
        inner=adam_init(params),
        skip_state=_skip_state(params),
    )


def multi_steps_update(grads, state, every_k):
    skip_state = _skip_state(grads)
    keep = ~skip_state["should_skip"]
    acc = jax.tree_util.tree_map(lambda a, g: jnp.where(keep, a + g / every_k, a), state.acc_grads, grads)
    mini_step = jnp.where(keep, state.mini_step + 1, state.mini_step)
    emit = mini_step == every_k
    updates, inner = adam_update(acc, state.inner)
    # Only a full accumulation moves the parameters and the inner optimizer.
    updates = jax.tree_util.tree_map(lambda u: jnp.where(emit, u, jnp.zeros_like(u)), updates)
    inner = jax.tree_util.tree_map(lambda new, old: jnp.where(emit, new, old), inner, state.inner)
    acc = jax.tree_util.tree_map(lambda a: jnp.where(emit, jnp.zeros_like(a), a), acc)
    new_state = MultiStepsState(
        mini_step=jnp.where(emit, 0, mini_step),
        gradient_step=state.gradient_step + emit.astype(jnp.int32),
        acc_grads=acc,
        inner=inner,
        skip_state=skip_state,
    )
    return updates, new_state
