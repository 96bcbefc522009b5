"""Fit the process and measurement noise of a local-level Kalman filter to each tide gauge. Records
have different lengths; each one is padded to RECORD_LEN and the filter skips masked samples."""

import jax
import jax.numpy as jnp
from jax import lax

from records import pad_record, synthetic_stations

GRID = 5  # candidates per parameter and refinement round
N_ROUNDS = 3


def negative_loglik(log_params, y, mask):
    q, r = jnp.exp(log_params)

    def filter_step(carry, obs):
        mean, var, nll = carry
        value, valid = obs
        var = var + q  # predict
        s = var + r
        k = var / s
        innov = value - mean
        new_mean = jnp.where(valid, mean + k * innov, mean)
        new_var = jnp.where(valid, (1.0 - k) * var, var)
        term = 0.5 * (jnp.log(2.0 * jnp.pi * s) + innov**2 / s)
        return (new_mean, new_var, nll + jnp.where(valid, term, 0.0)), new_mean

    init = (y[0], jnp.asarray(1.0, dtype=y.dtype), jnp.zeros((), y.dtype))
    (_, _, nll), _ = lax.scan(filter_step, init, (y, mask))
    return nll / jnp.sum(mask)


@jax.jit
def grid_nll(log_grid, y, mask):
    return jax.vmap(negative_loglik, in_axes=(0, None, None))(log_grid, y, mask)


def log_grid_around(center, half_width):
    offsets = jnp.linspace(-half_width, half_width, GRID, dtype=jnp.float32)
    dq, dr = jnp.meshgrid(offsets, offsets, indexing="ij")
    return jnp.stack([center[0] + dq.ravel(), center[1] + dr.ravel()], axis=1)


def fit_station(series):
    y, mask = pad_record(series)
    y, mask = jnp.asarray(y), jnp.asarray(mask)
    best = jnp.log(jnp.array([0.01, 0.05], dtype=jnp.float32))
    half_width = 2.0
    for _ in range(N_ROUNDS):
        candidates = log_grid_around(best, half_width)
        nlls = grid_nll(candidates, y, mask)
        best = candidates[jnp.argmin(nlls)]
        half_width /= 3.0
    return jnp.exp(best), float(jnp.min(nlls)), int(mask.sum())


if __name__ == "__main__":
    for name, series in synthetic_stations().items():
        (q, r), nll, n = fit_station(series)
        print(f"{name:14s} n={n:2d}  q={float(q):.4f}  r={float(r):.4f}  nll={nll:.3f}")
