"""Grey-radiation relaxation of an atmospheric column, written for the model's configured precision."""

import jax
import jax.numpy as jnp

STEFAN_BOLTZMANN = 5.67e-8
HEAT_CAPACITY = 1.0e7  # J m^-2 K^-1 per layer


def initial_column(n_layers, surface_temperature):
    """Temperatures from the surface up with a constant lapse rate, in the model's float type."""
    heights = jnp.linspace(0.0, 12.0, n_layers, dtype=float)
    return jnp.asarray(surface_temperature - 6.5 * heights, dtype=float)


@jax.jit
def radiative_step(temperature, absorbed_solar, dt):
    emitted = STEFAN_BOLTZMANN * temperature**4
    from_below = jnp.concatenate([emitted[:1], emitted[:-1]])
    from_above = jnp.concatenate([emitted[1:], jnp.zeros(1)])
    heating = absorbed_solar + 0.5 * (from_below + from_above) - 2.0 * emitted
    new_temperature = temperature + dt * heating / HEAT_CAPACITY
    return jnp.asarray(new_temperature, dtype=float)
