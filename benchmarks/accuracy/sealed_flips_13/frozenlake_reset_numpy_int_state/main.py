"""Train a Q-learning agent on the slippery 4x4 frozen lake for a few episodes."""

import jax

from agent import QLearningAgent
from frozen_lake import FrozenLakeEnv


def run_episode(env, agent, key, max_steps=25):
    state = env.reset()
    total = 0.0
    for _ in range(max_steps):
        key, sub = jax.random.split(key)
        action = agent.act(state, sub)
        next_state, reward, done, _ = env.step(action)
        agent.learn(state, action, reward, next_state, done)
        total += reward
        state = next_state
        if done:
            break
    return total


def main():
    env = FrozenLakeEnv(seed=3)
    agent = QLearningAgent(env.num_states, env.num_actions)
    key = jax.random.PRNGKey(0)
    for episode in range(6):
        key, sub = jax.random.split(key)
        print(f"episode {episode}: return {run_episode(env, agent, sub)}")


if __name__ == "__main__":
    main()
