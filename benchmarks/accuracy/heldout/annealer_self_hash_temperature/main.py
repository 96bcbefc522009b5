"""Anneal a random-coupling chain, cooling the annealer before every sweep."""

import jax
import jax.numpy as jnp
from annealer import Annealer
from schedule import geometric

N_SPINS = 8

if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    k_j, k_s, key = jax.random.split(key, 3)
    J = 0.3 * jax.random.normal(k_j, (N_SPINS, N_SPINS))
    J = (J + J.T) / 2 * (1 - jnp.eye(N_SPINS))
    spins = jnp.where(jax.random.uniform(k_s, (N_SPINS,)) < 0.5, -1.0, 1.0)

    annealer = Annealer(J, temperature=2.0)
    for temperature in geometric(2.0, 0.5, 4):
        annealer = annealer.cooled(temperature)  # expect: RTL202
        key, sub = jax.random.split(key)
        spins = annealer.sweep(spins, sub)  # expect: RTL202
        print(temperature, float(annealer.energy(spins)))
