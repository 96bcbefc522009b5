"""A blended pair of galaxies: each source is a flux times a circular Gaussian profile."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np


@dataclass
class SourceGuess:
    center: tuple  # (y, x) in pixels, from the detection catalogue
    flux: float
    radius: float


def init_params(guesses):
    return {
        "center": jnp.asarray(np.array([g.center for g in guesses], dtype=np.float32)),
        "flux": jnp.asarray(np.array([g.flux for g in guesses], dtype=np.float32)),
        "log_r": jnp.asarray(np.log(np.array([g.radius for g in guesses], dtype=np.float32))),
    }


def render(params, shape):
    yy, xx = jnp.mgrid[0 : shape[0], 0 : shape[1]]
    dy = yy[None] - params["center"][:, 0, None, None]
    dx = xx[None] - params["center"][:, 1, None, None]
    r2 = jnp.exp(2.0 * params["log_r"])[:, None, None]
    profiles = jnp.exp(-0.5 * (dy**2 + dx**2) / r2) / (2.0 * jnp.pi * r2)
    return jnp.sum(params["flux"][:, None, None] * profiles, axis=0)


def neg_log_like(params, obs, weights):
    resid = obs - render(params, obs.shape)
    return 0.5 * jnp.sum(weights * resid**2)


def step_size(it, base=0.02, decay=0.9):
    # iteration-dependent step size: large steps first, then settle
    return base * decay ** jnp.asarray(it)


@jax.jit
def make_step(params, obs, weights, it):
    loss, grads = jax.value_and_grad(neg_log_like)(params, obs, weights)
    scale = {"center": 1.0, "flux": 50.0, "log_r": 0.1}
    lr = step_size(it)
    new = {k: params[k] - lr * scale[k] * grads[k] / (1.0 + jnp.abs(grads[k])) for k in params}
    return new, loss
