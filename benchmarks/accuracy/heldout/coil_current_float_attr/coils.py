"""A tiny optimizable coil whose current and radius are tuned by gradient descent."""

import jax
import jax.numpy as jnp


@jax.jit
def field_on_axis(current, radius, z):
    return current * radius**2 / (2.0 * (radius**2 + z**2) ** 1.5)


class Coil:
    def __init__(self, current, radius):
        self.current = float(current)  # expect: RTL401
        self.radius = jnp.asarray(radius, jnp.float32)

    def field(self, z):
        return field_on_axis(self.current, self.radius, z)

    def params(self):
        return {"current": self.current, "radius": self.radius}

    def set_params(self, params):
        self.current = params["current"]
        self.radius = params["radius"]
