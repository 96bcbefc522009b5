"""Steady-state opinions on a sequence of weekly snapshots of a small trust network."""

import jax.numpy as jnp
import numpy as np

from solver import ConsensusSolver


def weekly_trust(weeks, n_agents=6, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(weeks):
        raw = rng.uniform(size=(n_agents, n_agents)) * (rng.uniform(size=(n_agents, n_agents)) < 0.6)
        raw += np.eye(n_agents)
        yield jnp.asarray(raw / raw.sum(axis=1, keepdims=True), jnp.float32)


def main():
    prior = jnp.linspace(-1.0, 1.0, 6, dtype=jnp.float32)
    solver = ConsensusSolver(stubbornness=0.2)
    for week, trust in enumerate(weekly_trust(4)):
        opinions, n_iter = solver.run(trust, prior)
        spread = float(opinions.max() - opinions.min())
        print(f"week {week}: {int(n_iter)} iterations, opinion spread {spread:.4f}")


if __name__ == "__main__":
    main()
