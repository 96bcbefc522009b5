"""Roll out a tracking policy on the imitation task and report the mean reward."""

import jax
import jax.numpy as jnp

from env import ReferenceClips, make_imitation_env


def tracking_policy(obs, gain=25.0):
    n = obs.shape[0] // 2
    return gain * obs[n:]


def rollout(n_steps=12, seed=0):
    clips = ReferenceClips()
    reset, step = make_imitation_env(clips)
    state = reset(jax.random.PRNGKey(seed))
    rewards = []
    for _ in range(n_steps):
        state = step(state, tracking_policy(state.obs))
        rewards.append(state.reward)
    return jnp.stack(rewards).mean(), state.info["tracking_error"]


if __name__ == "__main__":
    mean_reward, last_error = rollout()
    print(f"mean reward {float(mean_reward):.3f}, last tracking error {float(last_error):.4f}")
