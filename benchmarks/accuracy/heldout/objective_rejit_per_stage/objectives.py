"""An optimisation objective whose compiled compute sees its current target and weight."""

import jax
import jax.numpy as jnp


class ProfileMismatch:
    def __init__(self, target, weight=1.0):
        self.target = jnp.asarray(target, jnp.float32)
        self.weight = weight
        self.jit()

    def compute(self, x):
        return self.weight * jnp.sum((jnp.cumsum(x) - self.target) ** 2)

    def compute_grad(self, x):
        return jax.grad(self.compute)(x)

    def jit(self):
        """Jitted methods hold the attributes they were traced with, so jit them again after a change."""
        self._compute = jax.jit(self.compute)  # expect: RTL301
        self._compute_grad = jax.jit(self.compute_grad)  # expect: RTL301

    def update_target(self, target, weight=None):
        self.target = jnp.asarray(target, jnp.float32)
        if weight is not None:
            self.weight = weight
        self.jit()

    def value(self, x):
        return self._compute(x)

    def grad(self, x):
        return self._compute_grad(x)
