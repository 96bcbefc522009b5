"""A linear TD(lambda) learner for a continual prediction stream, with a decaying step size."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class LearnerState(NamedTuple):
    weights: jax.Array
    trace: jax.Array
    step_count: jax.Array


def init_learner(n_features):
    return LearnerState(jnp.zeros(n_features), jnp.zeros(n_features), jnp.zeros((), dtype=jnp.int32))


@jax.jit
def td_update(state, x, x_next, reward, gamma=0.9, lam=0.8, alpha0=0.1, decay=1e-3):
    alpha = alpha0 / (1.0 + decay * state.step_count)
    delta = reward + gamma * x_next @ state.weights - x @ state.weights
    trace = gamma * lam * state.trace + x
    return LearnerState(state.weights + alpha * delta * trace, trace, state.step_count + 1), delta
