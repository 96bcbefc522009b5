"""Look up per-bin values for a grid model run in 64-bit precision."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402


@jax.jit
def gather_values(table, idx):
    return table[idx].sum(axis=-1)


def bin_of(edges, points):
    return jnp.searchsorted(edges, points)  # expect: RTL402


def best_bins(scores):
    return np.argmax(scores, axis=1)  # expect: RTL402


def simulate(table, edges, points, scores):
    by_position = gather_values(table, bin_of(edges, points))
    by_score = gather_values(table, best_bins(scores))
    return by_position, by_score


if __name__ == "__main__":
    table = jnp.arange(12.0).reshape(6, 2)
    edges = jnp.linspace(0.0, 1.0, 6)
    points = jnp.array([0.1, 0.5, 0.9])
    scores = np.random.default_rng(0).random((3, 6))
    simulate(table, edges, points, scores)
