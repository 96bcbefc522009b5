"""An HMC transition kernel built as a closure over its step size and number of leapfrog steps."""

import jax
import jax.numpy as jnp


def make_hmc_kernel(log_density, step_size, num_steps):
    grad = jax.grad(log_density)

    def kernel(key, position):
        k1, k2 = jax.random.split(key)
        momentum = jax.random.normal(k1, position.shape)
        q, p = position, momentum + 0.5 * step_size * grad(position)
        for i in range(num_steps):
            q = q + step_size * p
            if i < num_steps - 1:
                p = p + step_size * grad(q)
        p = p + 0.5 * step_size * grad(q)
        log_accept = (log_density(q) - 0.5 * p @ p) - (log_density(position) - 0.5 * momentum @ momentum)
        accept_prob = jnp.minimum(1.0, jnp.exp(log_accept))
        new_position = jnp.where(jax.random.uniform(k2) < accept_prob, q, position)
        return new_position, accept_prob

    return kernel
