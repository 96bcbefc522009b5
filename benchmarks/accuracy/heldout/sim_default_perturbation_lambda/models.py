"""Plant and controller of a double-integrator tracking task."""

import jax.numpy as jnp


def double_integrator(x, u):
    return jnp.array([x[1], u[0]])


def pd_controller(x):
    return jnp.array([-4.0 * x[0] - 2.5 * x[1]])
