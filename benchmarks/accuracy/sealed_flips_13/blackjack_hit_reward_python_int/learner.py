"""Every-visit TD(0) control on a table indexed by the blackjack observation, updated under jax.jit."""

import jax
import jax.numpy as jnp

NUM_SUMS, NUM_CARDS, NUM_ACE = 32, 11, 2


def obs_index(obs):
    player_sum, dealer_card, ace = obs
    return (player_sum * NUM_CARDS + dealer_card) * NUM_ACE + int(ace)


def sarsa_update(q, s, a, reward, s_next, a_next, done, lr):
    bootstrap = jnp.where(done, 0.0, q[s_next, a_next])
    return q.at[s, a].add(lr * (reward + bootstrap - q[s, a]))


class SarsaLearner:
    def __init__(self, lr=0.05, epsilon=0.1, seed=0):
        self.q = jnp.zeros((NUM_SUMS * NUM_CARDS * NUM_ACE, 2))
        self.lr = lr
        self.epsilon = epsilon
        self.key = jax.random.PRNGKey(seed)
        self._update = jax.jit(sarsa_update)

    def policy(self, obs):
        self.key, sub = jax.random.split(self.key)
        if float(jax.random.uniform(sub)) < self.epsilon:
            return int(jax.random.bernoulli(sub))
        return int(jnp.argmax(self.q[obs_index(obs)]))

    def observe(self, obs, action, reward, next_obs, next_action, done):
        self.q = self._update(
            self.q, obs_index(obs), action, reward, obs_index(next_obs), next_action, done, self.lr
        )
