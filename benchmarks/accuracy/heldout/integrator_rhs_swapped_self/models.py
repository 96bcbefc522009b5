"""Right-hand sides for the stepper."""

import jax.numpy as jnp


def decay(y):
    return -0.5 * y


def oscillator(y):
    return jnp.stack([y[1], -y[0]])
