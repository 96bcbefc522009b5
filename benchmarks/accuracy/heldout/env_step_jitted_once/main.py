"""Time a random-action rollout with reset and step jitted once, outside the loop."""

import time

import jax
from env import Reacher


def rollout(reset, step, env, seed, steps=5):
    reset_key, action_key = jax.random.split(jax.random.PRNGKey(seed))
    state = reset(reset_key)
    total = 0.0
    for _ in range(steps):
        action_key, sub = jax.random.split(action_key)
        action = jax.random.normal(sub, (env.action_size,))
        state = step(state=state, action=action)
        total += float(state.reward)
    return total


if __name__ == "__main__":
    env = Reacher()
    reset = jax.jit(env.reset)
    step = jax.jit(env.step)
    for seed in range(3):
        t = time.time()
        print(seed, round(rollout(reset, step, env, seed), 3), f"{time.time() - t:.3f}s")
