"""A small unit-aware array type for an orbit integrator, with compiled conversion kernels."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp

TO_SI = {"kpc": 3.0857e19, "km": 1e3, "pc": 3.0857e16, "Myr": 3.15576e13, "s": 1.0, "km/s": 1e3, "kpc/Myr": 3.0857e19 / 3.15576e13}

_KERNELS = {}


@dataclass(frozen=True)
class Quantity:
    value: jax.Array
    unit: str

    def to(self, unit):
        return Quantity(_conversion_kernel(self.unit, unit)(self.value), unit)

    def norm(self, unit):
        return Quantity(_norm_kernel(self.unit, unit)(self.value), unit)


def _conversion_kernel(src, dst):
    key = ("convert", src, dst)
    if key not in _KERNELS:
        scale = TO_SI[src] / TO_SI[dst]

        def convert_values(v):
            return v * scale

        _KERNELS[key] = jax.jit(convert_values)
    return _KERNELS[key]


def _norm_kernel(src, dst):
    key = ("norm", src, dst)
    if key not in _KERNELS:
        scale = TO_SI[src] / TO_SI[dst]
        _KERNELS[key] = jax.jit(lambda v: jnp.linalg.norm(v, axis=-1) * scale)
    return _KERNELS[key]
