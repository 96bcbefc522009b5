"""Metropolis walkers for variational Monte Carlo."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def init_walkers(n_walkers, dim, seed=0):
    rng = np.random.default_rng(seed)
    return jnp.asarray(rng.normal(size=(n_walkers, dim)), dtype=jnp.float32)


@partial(jax.jit, static_argnums=0)
def metropolis_step(trial, key, walkers, step_size):
    k_move, k_accept = jax.random.split(key)
    proposal = walkers + step_size * jax.random.normal(k_move, walkers.shape, walkers.dtype)
    log_ratio = 2 * (trial.log_psi(proposal) - trial.log_psi(walkers))
    accept = jnp.log(jax.random.uniform(k_accept, log_ratio.shape)) < log_ratio
    return jnp.where(accept[:, None], proposal, walkers), accept.mean()
