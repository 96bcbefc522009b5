"""An auto-reset wrapper that keeps the first state of the episode and the terminal observation."""

import jax.numpy as jnp


class AutoResetWrapper:
    def __init__(self, env):
        self.env = env

    def reset(self, key):
        state = self.env.reset(key)
        state.info["first_q"] = state.q
        state.info["first_obs"] = state.obs  # expect: RTL403
        return state

    def step(self, state, action):
        state = self.env.step(state, action)
        # Keep the pre-reset observation so that truncated episodes can be bootstrapped.
        state.info["final_obs"] = state.obs  # expect: RTL403
        q = jnp.where(state.done > 0, state.info["first_q"], state.q)
        obs = jnp.where(state.done > 0, state.info["first_obs"], state.obs)
        steps = jnp.where(state.done > 0, 0.0, state.info["steps"])
        return type(state)(q, obs, state.reward, state.done, {**state.info, "steps": steps})
