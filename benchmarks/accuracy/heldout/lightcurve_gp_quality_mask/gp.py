"""Gaussian-process likelihood of a light curve under a squared-exponential kernel."""

import jax
import jax.numpy as jnp


@jax.jit
def gp_log_likelihood(params, t, y):
    amp, scale, noise = jnp.exp(params["log_amp"]), jnp.exp(params["log_scale"]), jnp.exp(params["log_noise"])
    d = t[:, None] - t[None, :]
    K = amp**2 * jnp.exp(-0.5 * (d / scale) ** 2) + noise**2 * jnp.eye(t.shape[0])
    L = jnp.linalg.cholesky(K)
    alpha = jax.scipy.linalg.cho_solve((L, True), y)
    return -0.5 * y @ alpha - jnp.sum(jnp.log(jnp.diag(L))) - 0.5 * t.shape[0] * jnp.log(2 * jnp.pi)
