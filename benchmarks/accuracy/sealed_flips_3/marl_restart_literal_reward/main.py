"""Anakin-style training loop: the jitted learner rolls the environment forward and updates the policy."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

from env import Foraging

ROLLOUT = 8
LEARNING_RATE = 0.01

env = Foraging()


class LearnerState(NamedTuple):
    params: jax.Array
    key: jax.Array
    env_state: object
    timestep: object


def policy_logits(params, observation):
    return (observation @ params).reshape(env.num_agents, -1)


def collect(params, env_state, timestep, key):
    def one_step(carry, step_key):
        env_state, timestep = carry
        observation = timestep.observation
        actions = jax.random.categorical(step_key, policy_logits(params, observation))
        env_state, timestep = env.step(env_state, actions)
        return (env_state, timestep), (observation, actions, timestep.reward)

    return jax.lax.scan(one_step, (env_state, timestep), jax.random.split(key, ROLLOUT))


def reinforce_loss(params, observations, actions, rewards):
    logits = jax.vmap(policy_logits, in_axes=(None, 0))(params, observations)
    log_probs = jnp.take_along_axis(jax.nn.log_softmax(logits), actions[..., None], -1)
    returns = jnp.cumsum(rewards[::-1])[::-1]
    return -jnp.sum(log_probs.sum(axis=(1, 2)) * (returns - returns.mean()))


@jax.jit
def learner_fn(learner_state):
    key, key_rollout = jax.random.split(learner_state.key)
    (env_state, timestep), (observations, actions, rewards) = collect(
        learner_state.params, learner_state.env_state, learner_state.timestep, key_rollout
    )
    grads = jax.grad(reinforce_loss)(learner_state.params, observations, actions, rewards)
    params = learner_state.params - LEARNING_RATE * grads
    return LearnerState(params, key, env_state, timestep), rewards.sum()


def main(n_updates=6, seed=0):
    key, key_env, key_params = jax.random.split(jax.random.PRNGKey(seed), 3)
    env_state, timestep = env.reset(key_env)
    params = 0.01 * jax.random.normal(key_params, (timestep.observation.shape[0], env.num_agents * 5))
    learner_state = LearnerState(params, key, env_state, timestep)
    total = 0.0
    for _ in range(n_updates):
        learner_state, ret = learner_fn(learner_state)
        total += float(ret)
    print(f"food collected over {n_updates * ROLLOUT} steps: {total:.0f}")


if __name__ == "__main__":
    main()
