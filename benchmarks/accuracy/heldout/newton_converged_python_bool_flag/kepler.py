"""Newton iterations for Kepler's equation E - e sin E = M, vectorised over bodies."""

import jax
import jax.numpy as jnp


@jax.jit
def newton_sweep(ecc_anom, done, mean_anom, ecc, tol):
    f = ecc_anom - ecc * jnp.sin(ecc_anom) - mean_anom
    fp = 1.0 - ecc * jnp.cos(ecc_anom)
    step = jnp.where(done, 0.0, f / fp)
    ecc_anom = ecc_anom - step
    done = jnp.logical_or(done, jnp.all(jnp.abs(step) < tol))
    return ecc_anom, done


def initial_guess(mean_anom, ecc):
    return jnp.where(ecc < 0.8, mean_anom, jnp.full_like(mean_anom, jnp.pi))
