"""Metropolis moves for a product-state ansatz, proposals taken from the operator's connected elements."""

import jax
import jax.numpy as jnp


def log_amplitude(theta, samples):
    return jnp.sum(theta * samples, axis=-1)


@jax.jit
def metropolis_move(theta, samples, proposals, key):
    """Accept each chain's proposal with probability |psi(x')/psi(x)|^2."""
    log_ratio = 2 * (log_amplitude(theta, proposals) - log_amplitude(theta, samples))
    accept = jnp.log(jax.random.uniform(key, log_ratio.shape)) < log_ratio
    return jnp.where(accept[:, None], proposals, samples)


def pick_proposals(connected, key):
    """One connected configuration per chain, chosen uniformly on the host."""
    choice = jax.random.randint(key, (connected.shape[0],), 0, connected.shape[1])
    return connected[jnp.arange(connected.shape[0]), choice]
