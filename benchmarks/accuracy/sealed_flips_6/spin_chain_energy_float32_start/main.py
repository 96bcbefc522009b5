"""Mean nearest-neighbour energy of a periodic spin chain at a few magnetisations."""

import jax.numpy as jnp

from chain import add_bond, sample_chains


def chain_energy(spins):
    energy = jnp.float32(0.0)
    for site in range(spins.shape[1]):
        energy = add_bond(energy, spins, jnp.int32(site))
    return energy


def main():
    for up_fraction in (0.5, 0.7, 0.9):
        spins = sample_chains(n_chains=64, n_sites=12, up_fraction=up_fraction, seed=1)
        energy = chain_energy(spins)
        print(f"up fraction {up_fraction:.1f}: energy per chain {float(energy):+.3f}")


if __name__ == "__main__":
    main()
