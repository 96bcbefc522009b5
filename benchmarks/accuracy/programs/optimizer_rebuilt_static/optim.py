"""A minimal optax-style optimiser: a pair of pure functions closed over the hyperparameters."""

from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class GradientTransformation(NamedTuple):
    init: Callable
    update: Callable


def momentum(learning_rate, beta=0.9):
    def init(params):
        return jax.tree_util.tree_map(jnp.zeros_like, params)

    def update(grads, velocity):
        velocity = jax.tree_util.tree_map(lambda v, g: beta * v + g, velocity, grads)
        return jax.tree_util.tree_map(lambda v: -learning_rate * v, velocity), velocity

    return GradientTransformation(init, update)
