"""Random-walk Metropolis with a warmup phase that adapts the proposal scale, then sampling."""

import jax
import jax.numpy as jnp


def log_density(x):
    return -0.5 * jnp.sum((x - 1.0) ** 2 / jnp.array([1.0, 4.0]))


@jax.jit
def mh_step(key, position, scale):
    proposal = position + scale * jax.random.normal(key, position.shape)
    log_ratio = log_density(proposal) - log_density(position)
    accept = jnp.log(jax.random.uniform(key)) < log_ratio
    return jnp.where(accept, proposal, position), accept


def warmup(key, position, num_steps, scale):
    accepted = 0
    for i in range(num_steps):
        key, sub = jax.random.split(key)
        position, ok = mh_step(sub, position, scale)
        accepted += int(ok)
    rate = accepted / num_steps
    adapted = scale * jnp.exp(jnp.float32(rate - 0.3))
    return key, position, adapted


def sample(key, position, num_samples, scale):
    draws = []
    for _ in range(num_samples):
        key, sub = jax.random.split(key)
        position, _ = mh_step(sub, position, scale)
        draws.append(position)
    return jnp.stack(draws)


def run(seed=0, init_scale=0.5):  # expect: RTL401
    key = jax.random.PRNGKey(seed)
    position = jnp.zeros(2)
    key, position, scale = warmup(key, position, 20, init_scale)
    return sample(key, position, 20, scale)


if __name__ == "__main__":
    print(run().mean(axis=0))
