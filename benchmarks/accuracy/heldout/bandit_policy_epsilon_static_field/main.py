"""Epsilon-greedy agent for an ad-placement multi-armed bandit.

The agent's state is a registered dataclass pytree; the exploration rate is
annealed after every episode of pulls.
"""

from dataclasses import dataclass, field, replace

import jax
import jax.numpy as jnp
import numpy as np


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class EpsilonGreedy:
    q_values: jax.Array
    counts: jax.Array
    epsilon: float = field(metadata=dict(static=True))  # expect: RTL202
    n_arms: int = field(metadata=dict(static=True))

    @classmethod
    def create(cls, n_arms, epsilon):
        zeros = jnp.zeros(n_arms, jnp.float32)
        return cls(q_values=zeros, counts=zeros, epsilon=epsilon, n_arms=n_arms)


@jax.jit
def act(policy, key):
    explore_key, arm_key = jax.random.split(key)
    greedy = jnp.argmax(policy.q_values)
    random_arm = jax.random.randint(arm_key, (), 0, policy.n_arms)
    explore = jax.random.uniform(explore_key) < policy.epsilon
    return jnp.where(explore, random_arm, greedy)


@jax.jit
def learn(policy, arm, reward):
    counts = policy.counts.at[arm].add(1.0)
    step = 1.0 / counts[arm]
    q = policy.q_values.at[arm].add(step * (reward - policy.q_values[arm]))
    return replace(policy, q_values=q, counts=counts)


class AdSlotEnv:
    def __init__(self, click_rates, seed):
        self.click_rates = np.asarray(click_rates)
        self.rng = np.random.default_rng(seed)

    def pull(self, arm):
        return float(self.rng.random() < self.click_rates[arm])


def run_episode(policy, env, key, pulls):
    total = 0.0
    for _ in range(pulls):
        key, sub = jax.random.split(key)
        arm = act(policy, sub)
        reward = env.pull(int(arm))
        policy = learn(policy, arm, reward)
        total += reward
    return policy, key, total


def main():
    env = AdSlotEnv(click_rates=[0.05, 0.12, 0.30, 0.08], seed=2)
    policy = EpsilonGreedy.create(n_arms=4, epsilon=0.5)
    key = jax.random.key(0)
    for episode in range(4):
        policy, key, clicks = run_episode(policy, env, key, pulls=5)
        print(f"episode {episode}: eps={policy.epsilon:.3f} clicks={clicks:.0f}")
        policy = replace(policy, epsilon=policy.epsilon * 0.6)  # expect: RTL202
    print("estimated click rates", np.round(np.asarray(policy.q_values), 3))


if __name__ == "__main__":
    main()
