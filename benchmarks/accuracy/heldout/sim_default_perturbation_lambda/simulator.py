"""Closed-loop simulation with optional sensor noise and disturbance callbacks."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("dynamics", "controller", "sensor", "perturbation", "num_steps"))
def simulate(x0, key, dt, dynamics, controller, sensor, perturbation, num_steps):
    def step(carry, k):
        x = carry
        k_sense, k_dist = jax.random.split(k)
        u = controller(sensor(x, k_sense))
        x = x + dt * (dynamics(x, u) + perturbation(x, u)(k_dist))
        return x, x

    _, xs = jax.lax.scan(step, x0, jax.random.split(key, num_steps))
    return xs


def _perfect_sensor(x, key):
    return x


def execute(x0, key, dynamics, controller, dt, num_steps, sensor=None, perturbation=None):
    """Simulate; without a sensor or a perturbation model the state is measured exactly and undisturbed."""
    _sensor = sensor if sensor is not None else _perfect_sensor
    _perturbation = (
        perturbation if perturbation is not None else (lambda x, u: (lambda k: jnp.zeros_like(x)))  # expect: RTL204
    )
    return simulate(x0, key, dt, dynamics, controller, _sensor, _perturbation, num_steps)  # expect: RTL204
