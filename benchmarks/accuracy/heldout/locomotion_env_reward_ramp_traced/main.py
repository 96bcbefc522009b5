"""Train a linear-Gaussian walking policy with REINFORCE while the environment ramps
its forward-velocity reward weight in over the first updates."""

import jax
import jax.numpy as jnp
import numpy as np

from walker_env import WalkerEnv

HORIZON = 5
N_UPDATES = 4


@jax.jit
def policy_action(weights, obs, key):
    mean = obs @ weights
    return mean + 0.1 * jax.random.normal(key, mean.shape)


@jax.jit
def reinforce_update(weights, observations, actions, returns, lr):
    def surrogate(w):
        mean = observations @ w
        logp = -0.5 * jnp.sum((actions - mean) ** 2, axis=-1) / 0.01
        advantage = returns - returns.mean()
        return -jnp.mean(logp * advantage)

    return weights - lr * jax.grad(surrogate)(weights)


def rollout(env, weights, key):
    key, reset_key = jax.random.split(key)
    state = env.reset(reset_key)
    observations, actions, rewards = [], [], []
    for _ in range(HORIZON):
        key, act_key = jax.random.split(key)
        obs = env.observe(state)
        action = policy_action(weights, obs, act_key)
        state, reward = env.step(state, action)
        observations.append(obs)
        actions.append(action)
        rewards.append(reward)
    returns = jnp.cumsum(jnp.stack(rewards)[::-1])[::-1]
    return jnp.stack(observations), jnp.stack(actions), returns, state, key


def train(seed=0):
    env = WalkerEnv()
    key = jax.random.PRNGKey(seed)
    weights = jnp.zeros((2 * env.n_joints, env.n_joints))
    lr = jnp.float32(1e-3)
    for update in range(N_UPDATES):
        env.set_curriculum(update)
        obs, acts, returns, final, key = rollout(env, weights, key)
        weights = reinforce_update(weights, obs, acts, returns, lr)
        print(f"update {update}: vel_scale={env.forward_vel_scale:.2f} "
              f"return={float(returns[0]):+.2e} com_x={float(final.com_x):+.2e}")
    return weights


if __name__ == "__main__":
    train()
