"""Thermodynamic integrals with polylogarithms, truncated at a static series order."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("order",))
def polylog(x, order, terms=30):
    k = jnp.arange(1, terms + 1, dtype=jnp.float32)
    return jnp.sum(x[..., None] ** k / k**order, axis=-1)


def energy_density(fugacity, species):
    total = jnp.zeros_like(fugacity)
    for spin_states, order in species:
        total = total + spin_states * polylog(fugacity, order=order)  # expect: RTL201
    return total


def scan_temperatures(temperatures, species):
    return [energy_density(jnp.exp(-1.0 / t), species) for t in temperatures]


if __name__ == "__main__":
    species = [(2.0, 4), (6.0, 3), (1.0, 2)]
    temps = jnp.linspace(0.5, 2.0, 4)
    print(jnp.stack(scan_temperatures(temps, species)))
