"""Evaluation callback: roll the current policy out once and keep the frames for a video."""

import jax
import jax.numpy as jnp


def make_policy_params_fn(env, rollout_len=20):
    frames_log = []

    def policy_params_fn(current_step, make_policy, params):
        policy = make_policy(params)
        jit_reset = jax.jit(env.reset)  # expect: RTL301
        jit_step = jax.jit(env.step)  # expect: RTL301
        state = jit_reset(jax.random.PRNGKey(current_step))
        frames = []
        for _ in range(rollout_len):
            state = jit_step(state, policy(state.pos, state.vel))
            frames.append(state.pos)
        frames_log.append((current_step, jnp.stack(frames)))
        return float(state.reward)

    return policy_params_fn, frames_log
