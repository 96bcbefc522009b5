"""Solve the steady diffusion problem for several sampled absorption fields."""

import jax
import jax.numpy as jnp
from operators import build_system
from solver import pcg

N_CELLS = 12

if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    source = jnp.ones(N_CELLS)
    for sample in range(4):
        key, sub = jax.random.split(key)
        absorption = jnp.exp(0.5 * jax.random.normal(sub, (N_CELLS,))) * 0.2
        operator, preconditioner = build_system(absorption)
        u, residual = pcg(operator, preconditioner, source)
        print(sample, round(float(u.max()), 4), float(residual))
