"""A small Hamiltonian Monte Carlo sampler: leapfrog steps and a Metropolis correction."""

from functools import partial

import jax
import jax.numpy as jnp


def _leapfrog(potential_fn, q, p, step_size, n_steps):
    grad_u = jax.grad(potential_fn)
    p = p - 0.5 * step_size * grad_u(q)
    for _ in range(n_steps - 1):
        q = q + step_size * p
        p = p - step_size * grad_u(q)
    q = q + step_size * p
    p = p - 0.5 * step_size * grad_u(q)
    return q, p


@partial(jax.jit, static_argnums=(0, 4))
def hmc_step(potential_fn, q, key, step_size, n_steps):
    k_mom, k_acc = jax.random.split(key)
    p0 = jax.random.normal(k_mom, q.shape)
    q_new, p_new = _leapfrog(potential_fn, q, p0, step_size, n_steps)
    h_old = potential_fn(q) + 0.5 * jnp.sum(p0 ** 2)
    h_new = potential_fn(q_new) + 0.5 * jnp.sum(p_new ** 2)
    accept = jnp.log(jax.random.uniform(k_acc)) < (h_old - h_new)
    return jnp.where(accept, q_new, q), accept


class HMC:
    def __init__(self, step_size=0.05, n_leapfrog=8):
        self.step_size = jnp.float32(step_size)
        self.n_leapfrog = n_leapfrog

    def run(self, potential_fn, init, key, num_samples):
        q = init
        draws, n_acc = [], 0
        for k in jax.random.split(key, num_samples):
            q, acc = hmc_step(potential_fn, q, k, self.step_size, self.n_leapfrog)  # expect: RTL204
            draws.append(q)
            n_acc += int(acc)
        return jnp.stack(draws), n_acc / num_samples
