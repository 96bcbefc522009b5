"""Run a few episodes of the memory chain with the recurrent agent and report how often it recalls the bit."""

import jax
import jax.numpy as jnp

import agent
import memory_chain


def episode(params, key):
    key, reset_key = jax.random.split(key)
    state, timestep = memory_chain.reset(reset_key)
    hidden = jnp.zeros(agent.HIDDEN)
    while not bool(timestep.done):
        key, act_key = jax.random.split(key)
        hidden, action = agent.agent_step(params, hidden, timestep, act_key)
        state, timestep = memory_chain.env_step(state, action)
    return float(timestep.reward)


def main(n_episodes=8, seed=0):
    key = jax.random.PRNGKey(seed)
    params = agent.init(key)
    returns = [episode(params, k) for k in jax.random.split(key, n_episodes)]
    print(f"recalled {sum(r > 0 for r in returns)} of {n_episodes}")


if __name__ == "__main__":
    main()
