"""Collect transitions with a linear policy; the policy is jitted and reads the whole timestep."""

import jax
import jax.numpy as jnp

from env import AutoReset, Reacher


@jax.jit
def policy(params, timestep):
    return jnp.tanh(params @ timestep.observation) * timestep.discount


def rollout(num_steps=5):
    env = AutoReset(Reacher())
    step = jax.jit(env.step)
    params = jnp.array([-1.0, 0.2])
    state, timestep = env.reset(jax.random.PRNGKey(3))
    total = 0.0
    for _ in range(num_steps):
        action = policy(params, timestep)
        state, timestep = step(state, action)
        total += float(timestep.reward)
    return total


if __name__ == "__main__":
    print("return", rollout())
