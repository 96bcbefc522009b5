"""A small HMC kernel whose trajectory length is drawn at random by a user-supplied function."""

from functools import partial

import jax
import jax.numpy as jnp


def _leapfrog(logdensity_fn, position, momentum, step_size, num_steps):
    grad_fn = jax.grad(logdensity_fn)

    def one_step(_, carry):
        q, p = carry
        p = p + 0.5 * step_size * grad_fn(q)
        q = q + step_size * p
        p = p + 0.5 * step_size * grad_fn(q)
        return q, p

    return jax.lax.fori_loop(0, num_steps, one_step, (position, momentum))


@partial(jax.jit, static_argnames=("logdensity_fn", "integration_steps_fn"))
def hmc_kernel(key, position, step_size, logdensity_fn, integration_steps_fn):
    """One HMC transition; the number of leapfrog steps comes from integration_steps_fn(key)."""
    key_steps, key_momentum, key_accept = jax.random.split(key, 3)
    num_steps = integration_steps_fn(key_steps)
    momentum = jax.random.normal(key_momentum, position.shape)
    new_q, new_p = _leapfrog(logdensity_fn, position, momentum, step_size, num_steps)

    energy_old = -logdensity_fn(position) + 0.5 * jnp.sum(momentum**2)
    energy_new = -logdensity_fn(new_q) + 0.5 * jnp.sum(new_p**2)
    accept_prob = jnp.minimum(1.0, jnp.exp(energy_old - energy_new))
    accepted = jax.random.uniform(key_accept) < accept_prob
    return jnp.where(accepted, new_q, position), accept_prob
