"""A small box-constrained minimiser in the style of a scipy wrapper: projected gradient steps."""

import jax
import jax.numpy as jnp


class BoundedMinimize:
    def __init__(self, fun, lower, upper, maxiter=25, step=0.05):
        self.fun = fun
        self.lower, self.upper = lower, upper
        self.maxiter, self.step = maxiter, step
        self._value_and_grad = jax.jit(jax.value_and_grad(fun))  # expect: RTL301

    def run(self, x0, *args):
        x = jnp.clip(x0, self.lower, self.upper)
        value = None
        for _ in range(self.maxiter):
            value, g = self._value_and_grad(x, *args)
            x = jnp.clip(x - self.step * g, self.lower, self.upper)
        return x, value
