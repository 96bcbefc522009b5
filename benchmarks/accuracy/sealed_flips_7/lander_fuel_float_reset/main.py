"""Fly the lander with a hand-tuned linear controller and report the touchdown speed."""

import jax
import jax.numpy as jnp

from lander import reset, step


@jax.jit
def controller(gains, obs):
    return jax.nn.sigmoid(jnp.dot(gains, obs) + 0.5)


def episode(key, gains, max_steps=60):
    state, obs = reset(key)
    total = 0.0
    for t in range(max_steps):
        state, obs, reward, landed = step(state, controller(gains, obs))
        total += float(reward)
        if bool(landed):
            break
    return t + 1, total, state


def main():
    gains = jnp.array([-1.5, -2.0, 0.3], dtype=jnp.float32)
    for seed in range(2):
        steps, total, state = episode(jax.random.PRNGKey(seed), gains)
        print(f"episode {seed}: {steps} steps, return {total:.2f}, fuel left {float(state.fuel):.1f}")


if __name__ == "__main__":
    main()
