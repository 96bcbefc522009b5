"""A small GCM-like driver; the integrator is a jitted method that takes the model as static."""

from functools import partial

import jax
import jax.numpy as jnp


class Model:
    def __init__(self, physics, time_step=0.5):
        self.physics = physics
        self.time_step = time_step

    def initial_state(self, n_lat):
        return jnp.full((2, n_lat), 270.0)

    # Note: self is static, so the physics (and its parameters) are baked into the executable.
    @partial(jax.jit, static_argnums=(0, 2))
    def _run_from_state(self, state, n_steps):
        def step(temp, _):
            temp = temp + self.time_step * self.physics.tendencies(temp)
            return temp, temp.mean()

        final, series = jax.lax.scan(step, state, None, length=n_steps)
        return final, series

    def run(self, state, total_time=12.0):
        n_steps = int(round(total_time / self.time_step))
        return self._run_from_state(state, n_steps)
