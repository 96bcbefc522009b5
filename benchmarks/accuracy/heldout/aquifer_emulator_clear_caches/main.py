"""Emulator-accelerated Metropolis calibration of aquifer conductivity and storage.

Every block refits the emulator on the design plus the chain's recent states, then
runs a few Metropolis steps on the emulated posterior.
"""

import jax
import jax.numpy as jnp
import numpy as np

from emulator import drawdown_model, fit_emulator

OBSERVED = drawdown_model(np.array([0.4, 0.05])) + 0.01


@jax.jit
def log_posterior(theta, coeffs, observed):
    log_k, storage = theta[0], theta[1]
    phi = jnp.stack([1.0, log_k, storage, log_k**2, log_k * storage, storage**2])
    predicted = phi @ coeffs
    prior = -0.5 * (log_k / 2.0) ** 2 - 0.5 * ((storage - 0.1) / 0.1) ** 2
    return prior - 0.5 * jnp.sum((predicted - observed) ** 2) / 0.02**2


class EmulatedSampler:
    def __init__(self, seed, step_scale=0.05):
        self.rng = np.random.default_rng(seed)
        self.step_scale = step_scale
        self.design = [np.array([a, b]) for a in (0.0, 0.5, 1.0) for b in (0.02, 0.1)]
        self.coeffs = None

    def refit(self, chain):
        self.design.extend(chain[-3:])
        self.coeffs = jnp.asarray(fit_emulator(self.design))
        # drop compiled code from the previous emulator to keep memory flat
        jax.clear_caches()  # expect: RTL302

    def block(self, theta, n_steps, observed):
        current = float(log_posterior(theta, self.coeffs, observed))
        chain = []
        for _ in range(n_steps):
            proposal = theta + self.step_scale * jnp.asarray(self.rng.normal(size=2), jnp.float32)
            proposed = float(log_posterior(proposal, self.coeffs, observed))
            if np.log(self.rng.uniform()) < proposed - current:
                theta, current = proposal, proposed
            chain.append(np.asarray(theta))
        return theta, chain


def main():
    sampler = EmulatedSampler(seed=3)
    observed = jnp.asarray(OBSERVED, jnp.float32)
    theta = jnp.array([0.5, 0.1], jnp.float32)
    chain = []
    for block in range(3):
        sampler.refit(chain)
        theta, new = sampler.block(theta, n_steps=5, observed=observed)
        chain.extend(new)
        print(f"block {block}: log K {float(theta[0]):.3f}, storage {float(theta[1]):.3f}")


if __name__ == "__main__":
    main()
