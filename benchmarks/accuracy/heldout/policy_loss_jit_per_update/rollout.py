"""Fixed-length episodes in a toy corridor environment."""

import jax
import jax.numpy as jnp
import numpy as np

EPISODE_LENGTH = 16


def observe(position):
    return jnp.array([position / 10.0, 1.0 - position / 10.0, 1.0])


def collect_episode(agent, key, gamma=0.95):
    position, observations, actions, rewards = 0, [], [], []
    for _ in range(EPISODE_LENGTH):
        key, sub = jax.random.split(key)
        obs = observe(position)
        action = int(agent.act(sub, obs))
        position = min(max(position + (1 if action == 1 else -1), 0), 10)
        observations.append(obs)
        actions.append(action)
        rewards.append(1.0 if position == 10 else -0.01)
    returns = np.zeros(EPISODE_LENGTH, dtype=np.float32)
    running = 0.0
    for t in reversed(range(EPISODE_LENGTH)):
        running = rewards[t] + gamma * running
        returns[t] = running
    return jnp.stack(observations), jnp.array(actions), jnp.asarray(returns)
