"""Estimate the energy of a product-state ansatz for the transverse-field Ising chain."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from operator_ising import TransverseIsing  # noqa: E402
from sampler import metropolis_move, pick_proposals  # noqa: E402


def main(n_sites=10, n_chains=32, sweeps=30):
    hamiltonian = TransverseIsing(n_sites, h=0.8)
    theta = jnp.full(n_sites, 0.3, dtype=jnp.float32)
    rng = np.random.default_rng(0)
    samples = jnp.asarray(rng.choice([-1.0, 1.0], size=(n_chains, n_sites)).astype(np.float32))
    key = jax.random.PRNGKey(1)
    for _ in range(sweeps):
        key, k_pick, k_move = jax.random.split(key, 3)
        connected, _ = hamiltonian.get_conn(samples)
        proposals = pick_proposals(jnp.asarray(connected), k_pick)
        samples = metropolis_move(theta, samples, proposals, k_move)
    energy = np.mean(hamiltonian.diagonal(samples))
    print(f"diagonal energy per chain {energy:.3f}, samples dtype {samples.dtype}")


if __name__ == "__main__":
    main()
