"""Collect a few foraging episodes in double precision (the reward bookkeeping needs it)."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402

from forage import act_and_step, reset  # noqa: E402


def run_episode(seed, policy_w, length=25):
    key = jax.random.PRNGKey(seed)
    key, reset_key = jax.random.split(key)
    state = reset(reset_key)
    collected = 0.0
    for _ in range(length):
        key, step_key = jax.random.split(key)
        state, reward = act_and_step(step_key, state, policy_w)
        collected += float(reward)
    return collected, state


def main():
    policy_w = 0.1 * jax.random.normal(jax.random.PRNGKey(7), (13, 4), dtype=jnp.float32)
    for seed in range(2):
        collected, state = run_episode(seed, policy_w)
        print(f"episode {seed}: collected {collected:.0f} food, ended at {state.pos.tolist()}")


if __name__ == "__main__":
    main()
