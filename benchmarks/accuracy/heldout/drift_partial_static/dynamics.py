"""Euler integration of rate cells with a pluggable drift function."""

from functools import partial

import jax
import jax.numpy as jnp


def leaky_drift(z, current, tau):
    return (-z + current) / tau


def prior_drift(z, current, tau, prior_scale):
    return (-z - prior_scale * jnp.tanh(z) + current) / tau


@partial(jax.jit, static_argnums=(3,))
def euler_step(z, current, dt, drift):
    return z + dt * drift(z, current)
