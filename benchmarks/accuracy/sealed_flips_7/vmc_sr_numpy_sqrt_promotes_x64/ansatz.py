"""A restricted Boltzmann machine wave function for a spin chain, kept in single precision."""

import itertools

import jax
import jax.numpy as jnp
import numpy as np

N_SPINS = 6


def init_params(key, n_hidden=4):
    """Single-precision parameters: the network is cheap, only the energy bookkeeping is double."""
    return {
        "a": jnp.zeros(N_SPINS, dtype=jnp.float32),
        "b": jnp.zeros(n_hidden, dtype=jnp.float32),
        "w": 0.05 * jax.random.normal(key, (N_SPINS, n_hidden), dtype=jnp.float32),
    }


def log_psi(params, s):
    return s @ params["a"] + jnp.sum(jnp.log(jnp.cosh(params["b"] + s @ params["w"])))


def all_configurations():
    return jnp.asarray(np.array(list(itertools.product([-1.0, 1.0], repeat=N_SPINS)), dtype=np.float32))
