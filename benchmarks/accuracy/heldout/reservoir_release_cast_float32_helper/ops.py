"""Reservoir operating rules and the jitted mass-balance kernels."""

import jax
import jax.numpy as jnp


def as_f32(x):
    """Model inputs arrive as Python numbers, NumPy scalars or arrays; store them all as float32."""
    return jnp.asarray(x, dtype=jnp.float32)


@jax.jit
def mass_balance(storage, inflow, release, capacity):
    """Advance storage by one day (all volumes in hm^3); returns (storage, spill)."""
    evaporation = 0.002 * storage
    new_storage = storage + inflow - release - evaporation
    spill = jnp.maximum(new_storage - capacity, 0.0)
    return jnp.clip(new_storage - spill, 0.0, capacity), spill


@jax.jit
def hedging_release(storage, demand, capacity):
    """Cut releases proportionally when the reservoir is below 40 % full."""
    fill = storage / capacity
    factor = jnp.clip(fill / 0.4, 0.3, 1.0)
    return demand * factor
