"""Evolution-strategies swing-up controller trained with a gravity curriculum.

The policy is a linear map from observation to torque. Each curriculum stage
makes the pendulum heavier (larger gravity), and the same jitted rollout is used
to score the perturbed policies in every stage.
"""

import dataclasses
from functools import partial

import jax
import jax.numpy as jnp

import pendulum

HORIZON = 40


@partial(jax.jit, static_argnames=("env_params", "horizon"))
def episode_return(weights, key, env_params, horizon):
    state = pendulum.reset(key)

    def swing_tick(state, _):
        action = jnp.tanh(weights @ pendulum.observe(state)) * env_params.max_torque
        state, reward = pendulum.step(env_params, state, action[0])
        return state, reward

    _, rewards = jax.lax.scan(swing_tick, state, None, length=horizon)
    return rewards.sum()


class GravityCurriculum:
    def __init__(self, base_params, gravities):
        self.base_params = base_params
        self.gravities = gravities

    def __len__(self):
        return len(self.gravities)

    def params_for(self, stage):
        return dataclasses.replace(self.base_params, gravity=self.gravities[stage])


def score(weights, key, env_params, n_episodes=2):
    keys = jax.random.split(key, n_episodes)
    returns = [episode_return(weights, k, env_params, HORIZON) for k in keys]
    return jnp.mean(jnp.stack(returns))


def es_update(weights, key, env_params, pop=3, sigma=0.1, lr=0.02):
    noise_key, eval_key = jax.random.split(key)
    eps = jax.random.normal(noise_key, (pop,) + weights.shape)
    fitness = jnp.stack([score(weights + sigma * e, eval_key, env_params) for e in eps])
    fitness = (fitness - fitness.mean()) / (fitness.std() + 1e-6)
    grad = jnp.tensordot(fitness, eps, axes=1) / (pop * sigma)
    return weights + lr * grad


def train(curriculum, key, iters_per_stage=2):
    weights = jnp.zeros((1, 3), dtype=jnp.float32)
    for stage in range(len(curriculum)):
        env_params = curriculum.params_for(stage)
        for _ in range(iters_per_stage):
            key, sub = jax.random.split(key)
            weights = es_update(weights, sub, env_params)  # expect: RTL201
        key, sub = jax.random.split(key)
        stage_return = score(weights, sub, env_params)  # expect: RTL201
        print(f"stage {stage} g={env_params.gravity:.1f}: return {float(stage_return):.2f}")
    return weights


if __name__ == "__main__":
    curriculum = GravityCurriculum(pendulum.EnvParams(), gravities=(4.0, 7.0, 10.0))
    final = train(curriculum, jax.random.PRNGKey(0))
    print("policy:", final.round(3).tolist())
