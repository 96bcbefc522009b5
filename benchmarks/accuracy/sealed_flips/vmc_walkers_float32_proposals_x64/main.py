"""Equilibrate walkers, with double precision on for the energy estimates."""

import jax

jax.config.update("jax_enable_x64", True)

from sampler import init_walkers, metropolis_step  # noqa: E402
from wavefunction import GaussianTrial  # noqa: E402


def equilibrate(n_sweeps=4):
    trial = GaussianTrial(1.0)
    walkers = init_walkers(64, 3)
    key = jax.random.PRNGKey(0)
    for _ in range(n_sweeps):
        key, sub = jax.random.split(key)
        walkers, rate = metropolis_step(trial, sub, walkers, 0.5)
    return walkers, float(rate)


if __name__ == "__main__":
    print(equilibrate()[1])
