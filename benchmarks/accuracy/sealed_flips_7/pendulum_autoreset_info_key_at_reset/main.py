"""Roll out an energy-pumping controller on the auto-reset pendulum and log the returns."""

import jax
import jax.numpy as jnp

from pendulum import Pendulum
from wrappers import AutoResetWrapper


def energy_pump(obs):
    cos_q, sin_q, velocity = obs
    return jnp.sign(velocity * cos_q) * 0.8 - 0.3 * sin_q


def main(n_steps=100):
    env = AutoResetWrapper(Pendulum())
    step_fn = jax.jit(env.step)
    state = env.reset(jax.random.PRNGKey(0))
    episode_return, returns = 0.0, []
    for _ in range(n_steps):
        state = step_fn(state, energy_pump(state.obs))
        episode_return += float(state.reward)
        if float(state.done) > 0:
            returns.append(episode_return)
            episode_return = 0.0
    print("episode returns:", [round(r, 2) for r in returns])


if __name__ == "__main__":
    main()
