"""SGD whose learning rate is a schedule kept in the optimizer state (so that it can be logged)."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class InjectedState(NamedTuple):
    count: jax.Array
    hyperparams: dict


def warmup_cosine(peak, warmup, total):
    def schedule(count):
        warm = peak * jnp.minimum(1.0, count / warmup)
        decay = 0.5 * peak * (1.0 + jnp.cos(jnp.pi * jnp.minimum(count, total) / total))
        return jnp.where(count < warmup, warm, decay)

    return schedule


def _param_dtype(params):
    return jax.tree_util.tree_leaves(params)[0].dtype


class InjectedSGD:
    def __init__(self, schedule):
        self.schedule = schedule

    def init(self, params):
        # The hyperparameters take the parameters' dtype.
        lr = jnp.asarray(self.schedule(0), dtype=_param_dtype(params))  # expect: RTL402
        return InjectedState(count=jnp.zeros((), jnp.int32), hyperparams={"learning_rate": lr})

    def update(self, grads, state):
        lr = self.schedule(state.count)  # expect: RTL402
        updates = jax.tree_util.tree_map(lambda g: (-lr * g).astype(g.dtype), grads)
        return updates, InjectedState(count=state.count + 1, hyperparams={"learning_rate": lr})
