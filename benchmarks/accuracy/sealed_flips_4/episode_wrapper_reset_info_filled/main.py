"""Roll out a linear feedback controller on the point-mass task, one jitted environment step at a time."""

import jax
import jax.numpy as jnp

from envs import PointMass
from wrappers import EpisodeWrapper

env = EpisodeWrapper(PointMass(), episode_length=40)
GAIN = jnp.array([[2.0, 0.0, -0.5, 0.0, 1.5, 0.0], [0.0, 2.0, 0.0, -0.5, 0.0, 1.5]])


@jax.jit
def control_step(state):
    action = GAIN @ state.obs * 0.5
    return env.step(state, action)


def main(n_steps=60, seed=0):
    state = env.reset(jax.random.PRNGKey(seed))
    total = 0.0
    for _ in range(n_steps):
        state = control_step(state)
        total += float(state.reward)
        if float(state.done):
            break
    print(f"return {total:.2f}, final distance {float(state.metrics['distance']):.3f}")


if __name__ == "__main__":
    main()
