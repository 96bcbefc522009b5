"""Train the corridor agent for a few episodes."""

import jax
from agent import PolicyGradientAgent
from rollout import collect_episode

if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    key, init_key = jax.random.split(key)
    agent = PolicyGradientAgent(init_key, obs_dim=3, num_actions=2)
    for episode in range(4):
        key, sub = jax.random.split(key)
        loss = agent.update(*collect_episode(agent, sub))
        print(episode, float(loss))
