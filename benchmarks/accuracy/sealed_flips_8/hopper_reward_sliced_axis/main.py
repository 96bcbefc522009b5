"""Roll out a fixed open-loop gait and report the return, as in a quick environment smoke test."""

import jax
import jax.numpy as jnp

from hopper import N_JOINTS, reset, step


def gait(t):
    phase = 2.0 * jnp.pi * t / 25.0
    return 0.5 * jnp.sin(phase + jnp.arange(N_JOINTS) * jnp.pi / 3)


def rollout(seed, horizon=20):
    state = reset(jax.random.PRNGKey(seed))
    total = 0.0
    for t in range(horizon):
        state = step(state, gait(t))
        total += float(jnp.sum(state.reward))
        if bool(state.done):
            break
    return total, float(state.metrics["x_velocity"])


def main():
    for seed in range(2):
        total, vel = rollout(seed)
        print(f"seed {seed}: return {total:.2f}, last forward velocity {vel:.2f}")


if __name__ == "__main__":
    main()
