"""An explicit integrator object whose right-hand side can be swapped."""

from functools import partial

import jax


class Stepper:
    def __init__(self, dt):
        self.dt = dt
        self.rhs = None

    def set_rhs(self, rhs):
        self.rhs = rhs

    @partial(jax.jit, static_argnums=(0,))
    def advance(self, y):
        k1 = self.rhs(y)
        k2 = self.rhs(y + 0.5 * self.dt * k1)
        return y + self.dt * k2
