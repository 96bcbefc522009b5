"""A Langevin sampler whose state is built from user-supplied Python numbers."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class SamplerState(NamedTuple):
    position: jax.Array
    step_size: jax.Array
    log_prob: jax.Array


def to_strong(value):
    """Like jnp.asarray, but never weakly typed: the dtype is stated explicitly."""
    return jnp.asarray(value, dtype=jnp.asarray(value).dtype)


def target_log_prob(x):
    return -0.5 * jnp.sum(x**2)


def init_state(position, step_size=0.1):
    position = to_strong(position)
    return SamplerState(position, to_strong(step_size), to_strong(target_log_prob(position)))


@jax.jit
def langevin_step(state, key):
    grad = jax.grad(target_log_prob)(state.position)
    noise = jax.random.normal(key, state.position.shape)
    position = state.position + state.step_size * grad + jnp.sqrt(2 * state.step_size) * noise
    step_size = state.step_size * 0.99
    return SamplerState(position, step_size, target_log_prob(position))


def run(num_steps=10, seed=0):
    state = init_state([1.0, -1.0, 0.5], step_size=0.05)
    key = jax.random.PRNGKey(seed)
    for _ in range(num_steps):
        key, sub = jax.random.split(key)
        state = langevin_step(state, sub)
    return state


if __name__ == "__main__":
    print(run())
