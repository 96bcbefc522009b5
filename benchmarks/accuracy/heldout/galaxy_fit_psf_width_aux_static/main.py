"""Fit a galaxy light profile to each night's cutout and track the flux (a light curve).

Every exposure gets its own Observation, whose renderer carries that night's
seeing; the same jitted gradient step is reused for all nights.
"""

import jax
import jax.numpy as jnp

from exposures import nightly_cutouts
from observation import Observation

SEEING = [0.82, 0.95, 0.71, 1.10]  # arcsec FWHM, from the nightly logs
N_STEPS = 4
LEARNING_RATES = {"flux": 15.0, "x0": 0.05, "y0": 0.05, "log_size": 0.03}


@jax.jit
def fit_step(params, obs):
    loss, grads = jax.value_and_grad(lambda p: -obs.log_likelihood(p))(params)
    new = {k: params[k] - LEARNING_RATES[k] * grads[k] / (1.0 + jnp.abs(grads[k])) for k in params}
    return new, loss


def initial_guess(obs):
    img = obs.image
    ny, nx = img.shape
    y, x = jnp.mgrid[0:ny, 0:nx]
    total = jnp.sum(img)
    return {
        "flux": total,
        "x0": jnp.sum(x * img) / total,
        "y0": jnp.sum(y * img) / total,
        "log_size": jnp.log(jnp.asarray(2.0)),
    }


def fit(obs, n_steps=N_STEPS):
    params = initial_guess(obs)
    for _ in range(n_steps):
        params, loss = fit_step(params, obs)
    return params, loss


def light_curve(seeing):
    fluxes = []
    for exposure in nightly_cutouts(seeing):
        obs = Observation.from_exposure(exposure)
        params, loss = fit(obs)
        fluxes.append(float(params["flux"]))
        print(f"night {exposure['header']['NIGHT']}  seeing {exposure['header']['SEEING']:.2f}\"  "
              f"flux {fluxes[-1]:8.1f}  chi2/2 {float(loss):9.1f}")
    return fluxes


if __name__ == "__main__":
    light_curve(SEEING)
