"""Segment laws for stage-discharge rating curves (h is stage above the gauge datum, in m)."""

import jax.numpy as jnp


def low_flow_weir(h):
    # control by a low-water weir: Q = C * h^1.5
    return 2.1 * jnp.clip(h, 0.0, None) ** 1.5


def channel_power_law(h):
    # in-channel section control, fitted power law
    return 4.8 * jnp.clip(h - 0.05, 0.0, None) ** 1.72


def overbank_flow(h):
    # floodplain takes over above bankfull stage
    bankfull = channel_power_law(jnp.asarray(1.6))
    return bankfull + 11.5 * jnp.clip(h - 1.6, 0.0, None) ** 1.3
