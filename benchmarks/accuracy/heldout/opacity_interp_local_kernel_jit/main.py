"""Radiative cooling of a column of gas cells, with the opacity interpolated at every step."""

import jax.numpy as jnp
from tables import kramers_table


def cool(temperature, table, dt, n_steps):
    """Optically thick cells cool slowly: the loss rate falls with the opacity."""
    history = []
    for _ in range(n_steps):
        kappa = table.lookup(temperature)
        temperature = temperature - dt * temperature / (1.0 + kappa)
        history.append(float(temperature.mean()))
    return temperature, history


if __name__ == "__main__":
    temperature = jnp.linspace(2e4, 6e5, 8)
    final, history = cool(temperature, kramers_table(), dt=0.2, n_steps=4)
    print("mean temperature per step:", [f"{t:.4g}" for t in history])
