"""Shrink the inducing set of a sparse GP fitted to a wind turbine's power curve.

Each round drops one inducing point and re-scores the collapsed bound, to find the
smallest set whose bound stays within a tolerance of the largest one.
"""

import jax.numpy as jnp
import numpy as np

from sparse_gp import collapsed_bound, inducing_grid

CUT_IN, CUT_OUT = 3.0, 25.0


def load_power_curve(n=160, seed=0):
    rng = np.random.default_rng(seed)
    wind = rng.uniform(CUT_IN, CUT_OUT, n)
    power = np.tanh((wind - 9.0) / 3.0) + 0.05 * rng.normal(size=n)
    return jnp.asarray(wind[:, None], jnp.float32), jnp.asarray(power, jnp.float32)


class InducingPruner:
    def __init__(self, start, smallest, tolerance=2.0):
        self.count = start
        self.smallest = smallest
        self.tolerance = tolerance
        self.scores = {}

    def next_grid(self):
        grid = inducing_grid(CUT_IN, CUT_OUT, self.count)
        self.count -= 1
        return grid

    def done(self):
        return self.count < self.smallest

    def run(self, x, y, hyper):
        while not self.done():
            grid = self.next_grid()
            self.scores[grid.shape[0]] = float(collapsed_bound(grid, x, y, hyper))
        best = max(self.scores.values())
        keep = [m for m, s in self.scores.items() if best - s < self.tolerance]
        return min(keep)


def main():
    x, y = load_power_curve()
    hyper = jnp.array([2.5, 0.01], jnp.float32)
    pruner = InducingPruner(start=12, smallest=8)
    chosen = pruner.run(x, y, hyper)
    for m in sorted(pruner.scores):
        print(f"{m:3d} inducing points: bound {pruner.scores[m]:9.2f}")
    print("smallest adequate set:", chosen)


if __name__ == "__main__":
    main()
