"""Episode bookkeeping around an environment: step counts and time-limit truncation in State.info."""

import dataclasses

import jax.numpy as jnp


class EpisodeWrapper:
    def __init__(self, env, episode_length):
        self.env = env
        self.episode_length = episode_length

    def reset(self, rng):
        state = self.env.reset(rng)
        zero = jnp.zeros(())
        return dataclasses.replace(state, info={**state.info, "steps": zero, "truncation": zero})

    def step(self, state, action):
        state = self.env.step(state, action)
        steps = state.info.get("steps", jnp.zeros(())) + 1.0
        truncation = (steps >= self.episode_length).astype(jnp.float32)
        info = {**state.info, "steps": steps, "truncation": truncation}
        done = jnp.maximum(state.done, truncation)
        return dataclasses.replace(state, done=done, info=info)
