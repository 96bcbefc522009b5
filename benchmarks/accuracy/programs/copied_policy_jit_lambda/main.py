"""Roll out a linear-tanh policy in a toy environment; each worker gets its own copy of the policy."""

import copy

import jax
import jax.numpy as jnp


class Policy:
    def __init__(self, weights, gain):
        self.weights = weights
        self.gain = gain

    def act(self, observation):
        head = jax.jit(lambda obs: jnp.tanh(self.gain * obs @ self.weights))  # expect: RTL301
        return head(observation)


def rollout(policy, start, steps=4):
    worker_policy = copy.deepcopy(policy)
    state, total = start, 0.0
    for _ in range(steps):
        action = worker_policy.act(state)
        state = 0.9 * state + 0.1 * action.sum()
        total += float(-jnp.sum(state**2))
    return total


if __name__ == "__main__":
    policy = Policy(jnp.eye(3) * 0.5, gain=2.0)
    print(rollout(policy, jnp.ones(3)))
