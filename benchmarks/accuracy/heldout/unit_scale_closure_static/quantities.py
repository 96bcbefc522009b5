"""Apply an elementwise conversion under jit, keeping the conversion static."""

from functools import partial

import jax
import jax.numpy as jnp
from units import scale_to_si


@partial(jax.jit, static_argnums=0)
def apply_conversion(convert, values):
    return jnp.log10(jnp.abs(convert(values)) + 1.0)


class Quantity:
    def __init__(self, values, unit):
        self.values = values
        self.unit = unit

    def log_si(self):
        return apply_conversion(scale_to_si(self.unit), self.values)  # expect: RTL204
