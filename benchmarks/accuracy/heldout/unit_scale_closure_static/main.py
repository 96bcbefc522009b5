"""Put a catalogue of distances on a common log scale."""

import jax.numpy as jnp
from quantities import Quantity

CATALOGUE = [
    (jnp.array([1.2, 3.4, 0.8]), "kpc"),
    (jnp.array([5.0, 7.5, 2.5]), "kpc"),
    (jnp.array([120.0, 40.0, 95.0]), "pc"),
    (jnp.array([3.3, 1.1, 9.9]), "kpc"),
]

if __name__ == "__main__":
    for values, unit in CATALOGUE:
        q = Quantity(values, unit)
        print(unit, q.log_si())
