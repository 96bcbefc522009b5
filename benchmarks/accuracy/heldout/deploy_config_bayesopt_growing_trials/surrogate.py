"""Gaussian-process surrogate and UCB acquisition for the config search."""
import jax
import jax.numpy as jnp

LENGTHSCALE = 0.35
SIGNAL_VAR = 1.0
NOISE_VAR = 1e-3


def rbf(a, b):
    d2 = jnp.sum((a[:, None, :] - b[None, :, :]) ** 2, axis=-1)
    return SIGNAL_VAR * jnp.exp(-0.5 * d2 / LENGTHSCALE**2)


@jax.jit
def posterior_ucb(x_obs, y_obs, candidates, beta):
    """Upper confidence bound of every candidate given the trials so far."""
    mu0 = jnp.mean(y_obs)
    sd0 = jnp.std(y_obs) + 1e-6
    y = (y_obs - mu0) / sd0
    k_oo = rbf(x_obs, x_obs) + NOISE_VAR * jnp.eye(x_obs.shape[0])
    k_co = rbf(candidates, x_obs)
    chol = jnp.linalg.cholesky(k_oo)
    alpha = jax.scipy.linalg.cho_solve((chol, True), y)
    mean = k_co @ alpha
    v = jax.scipy.linalg.solve_triangular(chol, k_co.T, lower=True)
    var = jnp.clip(SIGNAL_VAR - jnp.sum(v * v, axis=0), 1e-9)
    return mu0 + sd0 * (mean + beta * jnp.sqrt(var))
