"""Draw a lens system: a macro lens plus a Poisson number of subhaloes from a mass function."""

import jax.numpy as jnp
from lensing import Galaxy


def draw_subhaloes(rng, expected=3.0):
    n = rng.poisson(expected)
    return [Galaxy(jnp.asarray(rng.uniform(-1, 1, 2), dtype=jnp.float32),
                   jnp.asarray(rng.uniform(0.02, 0.08), dtype=jnp.float32)) for _ in range(n)]


def draw_system(rng, theta):
    macro = Galaxy(jnp.zeros(2), jnp.asarray(theta, dtype=jnp.float32))
    galaxies = [macro, *draw_subhaloes(rng)]  # expect: RTL403
    source = jnp.asarray(rng.normal(0.0, 0.1, 2), dtype=jnp.float32)
    return galaxies, source
