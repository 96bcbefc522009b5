"""Identify link masses from measured static joint configurations."""

import jax
import jax.numpy as jnp
from robot import PlanarArm

robot = PlanarArm.default(3)


@jax.jit
def evaluate(params, q):
    candidate = robot.with_params(params)
    return candidate.potential_energy(q)


@jax.jit
def loss_and_grad(params, configurations, measured):
    def loss(p):
        predicted = jax.vmap(lambda q: robot.with_params(p).potential_energy(q))(configurations)
        return jnp.mean((predicted - measured) ** 2)

    return jax.value_and_grad(loss)(params)


def fit_masses(configurations, measured, steps=5, learning_rate=0.002):
    params = dict(robot.params)
    for _ in range(steps):
        value, grads = loss_and_grad(params, configurations, measured)
        params = {"lengths": params["lengths"], "masses": params["masses"] - learning_rate * grads["masses"]}
    return params, value
