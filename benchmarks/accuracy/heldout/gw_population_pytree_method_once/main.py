"""A random-walk Metropolis sampler over population hyper-parameters: every
step builds a new model object with new hyper-parameter values and evaluates
its jitted log-rate on the same catalogue of primary masses."""

import jax.numpy as jnp
import numpy as np

from population import PowerLawPeak

F32 = jnp.float32


def initial_model():
    return PowerLawPeak(
        alpha=jnp.asarray(2.3, F32), m_min=jnp.asarray(5.0, F32),
        m_max=jnp.asarray(80.0, F32), lam=jnp.asarray(0.05, F32),
        mu=jnp.asarray(34.0, F32), sigma=jnp.asarray(4.0, F32),
    )


class Sampler:
    def __init__(self, model, masses, seed=0, step=0.05):
        self.model = model
        self.masses = masses
        self.rng = np.random.default_rng(seed)
        self.step = step
        self.current = float(model.log_rate(masses))

    def propose(self):
        return self.model.with_hyper(
            alpha=float(self.model.alpha) + self.step * self.rng.normal(),
            mu=float(self.model.mu) + 10 * self.step * self.rng.normal(),
        )

    def run(self, n_steps):
        accepted = 0
        for _ in range(n_steps):
            candidate = self.propose()
            logp = float(candidate.log_rate(self.masses))
            if np.log(self.rng.uniform()) < logp - self.current:
                self.model, self.current = candidate, logp
                accepted += 1
        return accepted


if __name__ == "__main__":
    rng = np.random.default_rng(11)
    masses = jnp.asarray(np.clip(rng.normal(30.0, 8.0, size=40), 6.0, 75.0), F32)
    sampler = Sampler(initial_model(), masses)
    n_acc = sampler.run(5)
    print("accepted", n_acc, "alpha", float(sampler.model.alpha), "mu", float(sampler.model.mu))
