"""Point-mass deflections summed over a list of galaxies, then a Gaussian source."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Galaxy(NamedTuple):
    centre: jax.Array
    einstein_radius: jax.Array


@jax.jit
def lensed_image(galaxies, source_centre, grid):
    deflection = jnp.zeros_like(grid)
    for g in galaxies:
        d = grid - g.centre
        r2 = jnp.sum(d ** 2, axis=-1, keepdims=True) + 1e-4
        deflection = deflection + g.einstein_radius ** 2 * d / r2
    beta = grid - deflection
    return jnp.exp(-jnp.sum((beta - source_centre) ** 2, axis=-1) / 0.02)
