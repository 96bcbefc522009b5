"""Collect a few walker episodes with a fixed linear policy."""

import jax
import jax.numpy as jnp

import walker_env
from collector import EpisodeCollector


def policy(obs):
    return jnp.array([1.0, -0.5]) - 0.3 * obs[2:]


def collect(key, n_episodes=2):
    returns = []
    for k in jax.random.split(key, n_episodes):
        collector = EpisodeCollector()
        obs, state, info = walker_env.reset(k)
        collector.on_reset(obs, info)
        done = False
        while not done:
            action = policy(obs)
            obs, state, reward, done, info = walker_env.step(state, action)
            collector.on_step(obs, action, reward, info)
            done = bool(done)
        returns.append(collector.episode_return())
    return returns


def main():
    returns = collect(jax.random.PRNGKey(0))
    print("episode returns", [round(r, 3) for r in returns])


if __name__ == "__main__":
    main()
