"""Hertzian contact energy of a batch of jammed disc packings with different contact counts."""

import jax
import jax.numpy as jnp
import numpy as np

from contacts import contact_capacity, padded_contacts

RADIUS = 0.06


@jax.jit
def contact_energy(positions, pairs, mask, stiffness):
    ri = positions[pairs[:, 0]]
    rj = positions[pairs[:, 1]]
    dist = jnp.linalg.norm(ri - rj + 1e-12, axis=-1)
    overlap = jnp.clip(2 * RADIUS - dist, 0.0, None)
    return stiffness * jnp.sum(mask * overlap**2.5)


def packings(count, n_grains=40, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.uniform(0.0, 0.7 + 0.05 * k, size=(n_grains, 2)) for k in range(count)]


def main():
    batch = packings(5)
    capacity = contact_capacity(batch, RADIUS)
    stiffness = jnp.float32(1e4)
    for k, positions in enumerate(batch):
        pairs, mask = padded_contacts(positions, RADIUS, capacity)
        energy = contact_energy(jnp.asarray(positions, jnp.float32), pairs, mask, stiffness)
        print(f"packing {k}: {int(mask.sum())} contacts, energy {float(energy):.4f}")


if __name__ == "__main__":
    main()
