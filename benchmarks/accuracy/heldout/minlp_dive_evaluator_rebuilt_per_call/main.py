"""Toy branch-and-bound over unit sizes: at each node run the diving heuristic for an incumbent."""

import numpy as np
import jax.numpy as jnp

from heuristics import fractional_dive


def build_model():
    return {
        "cost": np.array([1.0, 1.5, 0.8, 2.0], dtype=np.float32),
        "yield": np.array([2.0, 3.0, 1.5, 4.0], dtype=np.float32),
        "demand": 9.0,
        "penalty": 10.0,
        "lb": np.zeros(4, dtype=np.float32),
        "ub": np.full(4, 3.0, dtype=np.float32),
    }


def branch_and_bound(model, n_nodes=4):
    incumbent, best = None, np.inf
    rng = np.random.default_rng(0)
    for node in range(n_nodes):
        x_start = jnp.asarray(rng.uniform(0.0, 2.0, size=4), dtype=jnp.float32)
        x, value = fractional_dive(model, x_start)
        if value < best:
            incumbent, best = x, value
        print(f"node {node}: dive objective {value:.3f}, incumbent {best:.3f}")
    return incumbent, best


if __name__ == "__main__":
    x, best = branch_and_bound(build_model())
    print("best design:", np.round(np.asarray(x), 2), "objective", round(best, 3))
