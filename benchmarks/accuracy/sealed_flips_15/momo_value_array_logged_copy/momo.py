"""MoMo (model-based momentum): an adaptive step size from a momentum model of the loss, which needs
the loss value of the current batch next to its gradients."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class MomoState(NamedTuple):
    exp_avg: dict
    barf: jax.Array
    gamma: jax.Array
    count: jax.Array


def tree_vdot(a, b):
    return sum(jnp.vdot(x, y) for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b)))


class Momo:
    def __init__(self, learning_rate=1.0, beta=0.9, lower_bound=0.0, eps=1e-8):
        self.lr, self.beta, self.lower_bound, self.eps = learning_rate, beta, lower_bound, eps

    def init(self, params):
        zero = jnp.zeros((), jnp.float32)
        return MomoState(
            jax.tree.map(jnp.zeros_like, params), zero, zero, jnp.zeros((), jnp.int32)
        )

    def update(self, grads, state, params, value):
        bt = jnp.where(state.count == 0, 0.0, self.beta)
        barf = bt * state.barf + (1 - bt) * jnp.asarray(value, dtype=state.barf.dtype)
        exp_avg = jax.tree.map(lambda m, g: bt * m + (1 - bt) * g, state.exp_avg, grads)
        gamma = bt * state.gamma + (1 - bt) * tree_vdot(grads, params)
        model_gap = barf + tree_vdot(exp_avg, params) - gamma - self.lower_bound
        tau = jnp.minimum(self.lr, jnp.maximum(model_gap, 0.0) / (tree_vdot(exp_avg, exp_avg) + self.eps))
        updates = jax.tree.map(lambda m: -tau * m, exp_avg)
        return updates, MomoState(exp_avg, barf, gamma, state.count + 1)
