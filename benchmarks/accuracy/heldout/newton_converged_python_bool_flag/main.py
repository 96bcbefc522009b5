"""Propagate a small asteroid catalogue: solve Kepler's equation each epoch."""

from dataclasses import dataclass

import jax.numpy as jnp
import numpy as np

from kepler import initial_guess, newton_sweep

MAX_SWEEPS = 6


@dataclass
class Catalogue:
    ecc: jnp.ndarray
    mean_motion: jnp.ndarray
    m0: jnp.ndarray

    def mean_anomaly(self, t):
        return jnp.mod(self.m0 + self.mean_motion * t, 2 * jnp.pi)


def solve_kepler(cat, t, tol=1e-6):
    mean_anom = cat.mean_anomaly(t)
    ecc_anom = initial_guess(mean_anom, cat.ecc)
    converged = False
    sweeps = 0
    while not converged and sweeps < MAX_SWEEPS:
        ecc_anom, converged = newton_sweep(ecc_anom, converged, mean_anom, cat.ecc, tol)
        sweeps += 1
    return ecc_anom, sweeps


def heliocentric_radius(cat, semi_major, ecc_anom):
    return semi_major * (1.0 - cat.ecc * jnp.cos(ecc_anom))


if __name__ == "__main__":
    rng = np.random.default_rng(3)
    n = 8
    cat = Catalogue(
        ecc=jnp.asarray(rng.uniform(0.0, 0.6, n), jnp.float32),
        mean_motion=jnp.asarray(rng.uniform(0.1, 0.3, n), jnp.float32),
        m0=jnp.asarray(rng.uniform(0.0, 6.28, n), jnp.float32),
    )
    semi_major = jnp.asarray(rng.uniform(1.5, 3.5, n), jnp.float32)
    for epoch in range(4):
        E, sweeps = solve_kepler(cat, jnp.float32(10.0 * epoch))
        r = heliocentric_radius(cat, semi_major, E)
        print(f"epoch {epoch}: {sweeps} sweeps, mean r = {float(jnp.mean(r)):.4f} AU")
