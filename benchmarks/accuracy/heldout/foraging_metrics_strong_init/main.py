"""Foraging episodes with a linear softmax policy; a wrapper records each episode's return.
The jitted rollout step gets the last timestep first from reset, afterwards from itself."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

import foraging


class EpisodeMetrics(NamedTuple):
    running_return: jax.Array
    running_length: jax.Array


class RecordEpisodeMetrics:
    def __init__(self, env):
        self.env = env

    def reset(self, key):
        state, timestep = self.env.reset(key)
        metrics = EpisodeMetrics(jnp.zeros((), dtype=jnp.float32), jnp.zeros((), dtype=jnp.int32))
        timestep.extras["episode_metrics"] = {
            "episode_return": jnp.zeros((), dtype=jnp.float32),
            "episode_length": jnp.zeros((), dtype=jnp.int32),
            "is_terminal_step": jnp.zeros((), dtype=bool),
        }
        return (state, metrics), timestep

    def step(self, wrapped_state, actions):
        state, metrics = wrapped_state
        state, timestep = self.env.step(state, actions)
        done = timestep.discount == 0.0
        episode_return = metrics.running_return + timestep.reward
        episode_length = metrics.running_length + 1
        timestep.extras["episode_metrics"] = {
            "episode_return": episode_return,
            "episode_length": episode_length,
            "is_terminal_step": done,
        }
        metrics = EpisodeMetrics(jnp.where(done, 0.0, episode_return), jnp.where(done, 0, episode_length))
        return (state, metrics), timestep


env = RecordEpisodeMetrics(foraging)
env_reset = jax.jit(env.reset)


@jax.jit
def rollout_step(policy_params, wrapped_state, timestep, key):
    logits = timestep.observation @ policy_params["w"] + policy_params["b"]
    return env.step(wrapped_state, jax.random.categorical(key, logits, axis=-1))


def collect(num_episodes=3, seed=0):
    key, init_key = jax.random.split(jax.random.PRNGKey(seed))
    n_moves = foraging.MOVES.shape[0]
    params = {"w": 0.1 * jax.random.normal(init_key, (foraging.OBS_DIM, n_moves)), "b": jnp.zeros(n_moves)}
    total_return, returns = 0.0, []
    for _ in range(num_episodes):
        key, reset_key = jax.random.split(key)
        wrapped_state, timestep = env_reset(reset_key)
        for _ in range(foraging.MAX_STEPS):
            key, act_key = jax.random.split(key)
            wrapped_state, timestep = rollout_step(params, wrapped_state, timestep, act_key)
            metrics = timestep.extras["episode_metrics"]
            if bool(metrics["is_terminal_step"]):
                returns.append(float(metrics["episode_return"]))
                total_return += returns[-1]
                break
    print(f"episode returns {returns}, mean {total_return / len(returns):.2f}")
    return returns


if __name__ == "__main__":
    collect()
