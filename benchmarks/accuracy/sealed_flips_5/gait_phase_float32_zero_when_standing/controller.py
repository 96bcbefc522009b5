"""Foot height targets of a trotting gait: diagonal leg pairs swing half a cycle apart."""

import jax
import jax.numpy as jnp

LEG_OFFSETS = jnp.array([0.0, 0.5, 0.5, 0.0])  # FL, FR, RL, RR


@jax.jit
def foot_targets(phase, swing_height, body_height):
    leg_phase = jnp.mod(phase + LEG_OFFSETS, 1.0)
    swing = jnp.where(leg_phase < 0.5, jnp.sin(2 * jnp.pi * leg_phase), 0.0)
    return body_height - swing_height * (1.0 - jnp.cos(jnp.pi * swing)) / 2.0
