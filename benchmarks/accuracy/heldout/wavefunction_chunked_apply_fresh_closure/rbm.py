"""Restricted-Boltzmann-machine ansatz for a spin-1/2 chain, and a memory-bounded evaluator."""

import jax
import jax.numpy as jnp


def init_rbm(key, n_sites, alpha=2):
    k1, k2 = jax.random.split(key)
    n_hidden = alpha * n_sites
    return {
        "a": 0.01 * jax.random.normal(k1, (n_sites,)),
        "b": jnp.zeros((n_hidden,)),
        "W": 0.05 * jax.random.normal(k2, (n_sites, n_hidden)),
    }


def log_psi(params, sigma):
    """log amplitude of each configuration in sigma, shape (batch, n_sites) of +-1."""
    theta = sigma @ params["W"] + params["b"]
    return sigma @ params["a"] + jnp.sum(jnp.log(jnp.cosh(theta)), axis=-1)


def apply_chunked(fun, chunk_size):
    """Evaluate fun(params, x) over the rows of x, chunk_size rows at a time."""

    def chunked(params, x):
        n, n_sites = x.shape
        blocks = x.reshape(n // chunk_size, chunk_size, n_sites)
        out = jax.lax.map(lambda block: fun(params, block), blocks)
        return out.reshape(n)

    return chunked
