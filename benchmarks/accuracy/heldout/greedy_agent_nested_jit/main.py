"""Roll out a few episodes of a fixed policy and log its confidence."""

import jax
import jax.numpy as jnp
from env import GridWalk
from policy import GreedyAgent


def init_params(key, obs_dim=5, hidden=8, actions=2):
    k1, k2 = jax.random.split(key)
    return {
        "w1": jax.random.normal(k1, (obs_dim, hidden)) * 0.3,
        "b1": jnp.zeros(hidden),
        "w2": jax.random.normal(k2, (hidden, actions)) * 0.3,
        "b2": jnp.array([0.0, 0.5]),
    }


def run_episode(agent, env, max_steps=4):
    obs, total, confidences = env.reset(), 0.0, []
    for _ in range(max_steps):
        action, conf = agent.take_action(obs)
        confidences.append(float(conf))
        obs, reward, done = env.step(int(action))
        total += reward
        if done:
            break
    return total, confidences


if __name__ == "__main__":
    agent = GreedyAgent(init_params(jax.random.PRNGKey(0)))
    env = GridWalk()
    for episode in range(2):
        ret, conf = run_episode(agent, env)
        print(episode, ret, [round(c, 3) for c in conf])
