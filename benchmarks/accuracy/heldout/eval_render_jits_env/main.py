"""A tiny trainer that improves a linear feedback policy and calls back after each eval."""

import jax
import jax.numpy as jnp
from env import TrackingEnv
from logging_utils import make_policy_params_fn


def make_policy(params):
    return lambda pos, vel: params["kp"] * (-pos) + params["kd"] * (-vel)


def train(num_evals, policy_params_fn):
    params = {"kp": jnp.array(0.5), "kd": jnp.array(0.1)}
    for step in range(num_evals):
        params = {k: v * 1.2 for k, v in params.items()}
        reward = policy_params_fn(step, make_policy, params)
        print(f"eval {step}: final reward {reward:.4f}")
    return params


if __name__ == "__main__":
    env = TrackingEnv()
    policy_params_fn, frames = make_policy_params_fn(env)
    train(num_evals=3, policy_params_fn=policy_params_fn)
    print(len(frames), frames[-1][1].shape)
