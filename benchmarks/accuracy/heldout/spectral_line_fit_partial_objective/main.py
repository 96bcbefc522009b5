"""Fit an emission line in each observed spectrum of a galaxy survey."""
import numpy as np
import jax.numpy as jnp
from jax.tree_util import Partial

from fitting import chi_square, minimize

N_PIX = 64
LINES = {"H-alpha": 656.3, "NII": 658.4, "SII": 671.6}


def observe(rest_centre, redshift, rng):
    wl = np.linspace(rest_centre - 4.0, rest_centre + 4.0, N_PIX) * (1 + redshift)
    centre = rest_centre * (1 + redshift)
    flux = 1.0 + 3.0 * np.exp(-0.5 * ((wl - centre) / 0.6) ** 2)
    flux += rng.normal(0.0, 0.05, N_PIX)
    ivar = np.full(N_PIX, 1.0 / 0.05 ** 2)
    return jnp.asarray(wl, jnp.float32), jnp.asarray(flux, jnp.float32), jnp.asarray(ivar, jnp.float32)


def build_objectives(redshift, rng):
    objectives = {}
    for name, rest in LINES.items():
        wl, flux, ivar = observe(rest, redshift, rng)
        objectives[name] = (Partial(chi_square, wavelengths=wl, flux=flux, ivar=ivar),
                            float(rest * (1 + redshift)))
    return objectives


def fit_galaxy(redshift, rng):
    results = {}
    for name, (objective, guess_centre) in build_objectives(redshift, rng).items():
        p0 = jnp.array([2.0, guess_centre, jnp.log(1.0), 1.0], jnp.float32)
        params, loss = minimize(objective, p0, 1e-4)
        results[name] = (float(params[1]), float(loss))
    return results


if __name__ == "__main__":
    rng = np.random.default_rng(7)
    for z in (0.01, 0.02, 0.035):
        fits = fit_galaxy(z, rng)
        print(z, {k: round(v[0], 2) for k, v in fits.items()})
