"""Explicit finite-difference heat diffusion on a plate, with the field kept in half precision."""

import jax
import jax.numpy as jnp
import numpy as np


def hot_spot_plate(n, spots, seed):
    """Initial temperatures: a cool plate with a few heated patches."""
    rng = np.random.default_rng(seed)
    field = np.full((n, n), 20.0)
    for _ in range(spots):
        i, j = rng.integers(2, n - 2, size=2)
        field[i - 1 : i + 2, j - 1 : j + 2] = 90.0
    return jnp.asarray(field, dtype=jnp.float32)


@jax.jit
def diffuse(field, alpha):
    """One explicit step, computed in float32 and stored in the dtype the field came in."""
    padded = jnp.pad(field.astype(jnp.float32), 1, mode="edge")
    laplacian = (
        padded[:-2, 1:-1] + padded[2:, 1:-1] + padded[1:-1, :-2] + padded[1:-1, 2:] - 4 * padded[1:-1, 1:-1]
    )
    new_field = padded[1:-1, 1:-1] + alpha * laplacian
    return new_field.astype(field.dtype)
