"""Tabular Q-learning with the action choice and the TD update compiled by jax.jit."""

import jax
import jax.numpy as jnp


def select_action(q_table, state, key, epsilon):
    explore = jax.random.uniform(key) < epsilon
    random_action = jax.random.randint(key, (), 0, q_table.shape[1])
    return jnp.where(explore, random_action, jnp.argmax(q_table[state]))


def td_update(q_table, state, action, reward, next_state, done, lr, gamma):
    target = reward + gamma * jnp.max(q_table[next_state]) * (1.0 - done)
    return q_table.at[state, action].add(lr * (target - q_table[state, action]))


class QLearningAgent:
    def __init__(self, num_states, num_actions, lr=0.1, gamma=0.95, epsilon=0.2):
        self.q_table = jnp.zeros((num_states, num_actions))
        self.lr = lr
        self.gamma = gamma
        self.epsilon = epsilon
        self._select = jax.jit(select_action)
        self._update = jax.jit(td_update)

    def act(self, state, key):
        return int(self._select(self.q_table, state, key, self.epsilon))

    def learn(self, state, action, reward, next_state, done):
        self.q_table = self._update(
            self.q_table, state, action, reward, next_state, float(done), self.lr, self.gamma
        )
