"""Monthly private release of a (region x age band) table for a small district.

Each month the statistics office publishes noisy one-way marginals, plus exact
region sub-totals that come from the public register. The estimator reconstructs
a consistent joint table from both.
"""

import jax.numpy as jnp
import numpy as np

from estimator import LinearConstraint, Measurement, MirrorDescent

REGIONS, AGE_BANDS = 3, 4
N_CELLS = REGIONS * AGE_BANDS


def one_way_queries():
    rows = []
    for r in range(REGIONS):
        q = np.zeros((REGIONS, AGE_BANDS), dtype=np.float32)
        q[r, :] = 1.0
        rows.append(q.ravel())
    for a in range(AGE_BANDS):
        q = np.zeros((REGIONS, AGE_BANDS), dtype=np.float32)
        q[:, a] = 1.0
        rows.append(q.ravel())
    return np.stack(rows)


def measure(true_table, rng, sigma):
    query = one_way_queries()
    answers = query @ true_table.ravel()
    noisy = answers + rng.normal(0.0, sigma, size=answers.shape)
    return Measurement(jnp.asarray(query), jnp.asarray(noisy, dtype=jnp.float32),
                       jnp.asarray(sigma, dtype=jnp.float32))


def register_constraints(true_table):
    constraints = []
    for r in range(REGIONS):
        w = np.zeros((REGIONS, AGE_BANDS), dtype=np.float32)
        w[r, :] = 1.0
        constraints.append(LinearConstraint(jnp.asarray(w.ravel()),
                                            jnp.asarray(true_table[r].sum(), dtype=jnp.float32)))
    return constraints


def monthly_release(month, rng):
    true_table = rng.integers(20, 120, size=(REGIONS, AGE_BANDS)).astype(np.float32)
    estimator = MirrorDescent(iters=200, step=0.05)
    constraints = register_constraints(true_table)
    measurement = measure(true_table, rng, sigma=5.0)
    estimate = estimator.estimate(measurement, constraints, float(true_table.sum()))
    error = np.abs(np.asarray(estimate).reshape(REGIONS, AGE_BANDS) - true_table).mean()
    print(f"month {month}: mean abs error per cell {error:.2f}")
    return estimate


if __name__ == "__main__":
    rng = np.random.default_rng(7)
    for month in range(1, 5):
        monthly_release(month, rng)
