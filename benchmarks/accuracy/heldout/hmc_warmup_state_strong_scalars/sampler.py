"""A bare-bones HMC kernel with dual-averaging step-size adaptation."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

DTYPE = jnp.float32


class HMCState(NamedTuple):
    position: jax.Array
    potential: jax.Array
    grad: jax.Array


class DualAveraging(NamedTuple):
    log_step: float
    log_step_avg: float
    h_bar: float
    count: int


def as_param(x):
    """Every scalar that enters the kernel goes through here, so it is never weak-typed."""
    return jnp.asarray(x, dtype=DTYPE)


def make_kernel(potential_fn, n_leapfrog=8):
    value_and_grad = jax.value_and_grad(potential_fn)

    def init(position):
        position = as_param(position)
        u, g = value_and_grad(position)
        return HMCState(position, u, g)

    @jax.jit
    def hmc_step(state, key, step_size):
        k_mom, k_acc = jax.random.split(key)
        p0 = jax.random.normal(k_mom, state.position.shape, DTYPE)
        x, g = state.position, state.grad
        p = p0 - 0.5 * step_size * g
        for i in range(n_leapfrog):
            x = x + step_size * p
            u, g = value_and_grad(x)
            if i < n_leapfrog - 1:
                p = p - step_size * g
        p = p - 0.5 * step_size * g
        h0 = state.potential + 0.5 * jnp.sum(p0**2)
        h1 = u + 0.5 * jnp.sum(p**2)
        accept_prob = jnp.minimum(1.0, jnp.exp(h0 - h1))
        accept = jax.random.uniform(k_acc) < accept_prob
        new = HMCState(
            jnp.where(accept, x, state.position),
            jnp.where(accept, u, state.potential),
            jnp.where(accept, g, state.grad),
        )
        return new, accept_prob
    return init, hmc_step


def adapt(da, accept_prob, target=0.8, gamma=0.05, t0=10.0, kappa=0.75, mu=0.0):
    count = da.count + 1
    eta = 1.0 / (count + t0)
    h_bar = (1 - eta) * da.h_bar + eta * (target - float(accept_prob))
    log_step = mu - (count**0.5) / gamma * h_bar
    w = count**-kappa
    log_step_avg = w * log_step + (1 - w) * da.log_step_avg
    return DualAveraging(log_step, log_step_avg, h_bar, count)
