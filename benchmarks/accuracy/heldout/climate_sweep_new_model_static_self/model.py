"""A column model whose jitted integrator takes the model itself as a static argument."""

from functools import partial

import jax
import jax.numpy as jnp


class Model:
    def __init__(self, physics, time_step=0.5):
        self.physics = physics
        self.time_step = time_step

    @partial(jax.jit, static_argnums=(0, 2))
    def _run_from_state(self, temp, n_steps):
        # note: changing fields assumed static won't propagate
        def step(temp, _):
            tend = sum(term.tendency(temp) for term in self.physics)
            return temp + self.time_step * tend, temp.mean()

        return jax.lax.scan(step, temp, None, length=n_steps)

    def run(self, temp, total_hours):
        return self._run_from_state(temp, int(total_hours / self.time_step))
