"""Map cells between consecutive time points of a differentiation time course."""

import numpy as np
import jax.numpy as jnp

from transport import SinkhornConfig, solve

N_CELLS = 24
N_GENES = 8


def simulate_time_course(n_points, seed=0):
    rng = np.random.default_rng(seed)
    drift = rng.normal(size=N_GENES)
    snapshots = []
    for t in range(n_points):
        cells = rng.normal(size=(N_CELLS, N_GENES)) + 0.3 * t * drift
        snapshots.append(jnp.asarray(cells, dtype=jnp.float32))
    return snapshots


def uniform_marginal(n):
    return jnp.full((n,), 1.0 / n, dtype=jnp.float32)


class TrajectoryProblem:
    def __init__(self, snapshots, config):
        self.snapshots = snapshots
        self.config = config

    def solve_pairs(self):
        couplings = []
        for src, tgt in zip(self.snapshots[:-1], self.snapshots[1:]):
            a = uniform_marginal(src.shape[0])
            b = uniform_marginal(tgt.shape[0])
            plan, cost = solve(src, tgt, a, b, self.config)
            couplings.append((plan, float(cost)))
        return couplings


def main():
    snapshots = simulate_time_course(5)
    problem = TrajectoryProblem(snapshots, SinkhornConfig(epsilon=0.05, n_iters=40))
    for step, (plan, cost) in enumerate(problem.solve_pairs()):
        fate = np.asarray(plan.argmax(axis=1))
        print(f"t{step}->t{step + 1}: cost={cost:.4f} mass={float(plan.sum()):.3f} fates={fate[:5]}")


if __name__ == "__main__":
    main()
