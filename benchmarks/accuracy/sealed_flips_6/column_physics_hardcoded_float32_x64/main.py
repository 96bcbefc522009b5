"""Relax a 20-layer column to radiative equilibrium in double precision."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402

from physics import initial_column, radiative_step  # noqa: E402


def main(days=30):
    temperature = initial_column(n_layers=20, surface_temperature=288.0)
    absorbed = jnp.full(20, 12.0).at[0].set(160.0)
    dt = 6 * 3600.0
    for _ in range(days * 4):
        temperature = radiative_step(temperature, absorbed, dt)
    print(f"surface {float(temperature[0]):.1f} K, top {float(temperature[-1]):.1f} K, dtype {temperature.dtype}")


if __name__ == "__main__":
    main()
