"""Plant models and costs for the pendulum swing-up controller."""

import jax
import jax.numpy as jnp

GRAVITY = 9.81


def pendulum_dynamics(state, torque, params):
    theta, omega = state[0], state[1]
    length, mass, damping = params[0], params[1], params[2]
    alpha = (-GRAVITY / length * jnp.sin(theta) - damping * omega
             + torque / (mass * length**2))
    return jnp.stack([omega, alpha])


def quadratic_cost(trajectory, controls):
    angle_err = jnp.cos(trajectory[:, 0]) + 1.0   # zero when upright
    return jnp.sum(angle_err**2) + 0.1 * jnp.sum(trajectory[:, 1] ** 2) + 1e-3 * jnp.sum(controls**2)


def effort_cost(trajectory, controls):
    return jnp.sum(controls**2)


COSTS = {
    "quadratic": jax.jit(quadratic_cost),
    "effort": jax.jit(effort_cost),
}
