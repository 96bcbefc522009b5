"""Unit-carrying values for galactic-dynamics scripts.

Internally everything runs in kpc, Myr and Msun.  Functions decorated with
`unitful` take Quantities, strip them to base-unit numbers, run a compiled
kernel and put units back on the result.  The compiled kernel is looked up on
every call, but it is built only once per (function, static names) and kept
in a module-level table, so repeated calls reuse the same jitted callable.
"""
import functools
from dataclasses import dataclass

import jax

# factor that converts one unit into the base unit of its dimension
TO_BASE = {
    "kpc": 1.0,
    "pc": 1e-3,
    "Myr": 1.0,
    "Gyr": 1e3,
    "Msun": 1.0,
    "kpc/Myr": 1.0,
    "km/s": 1.0227121650537077e-3,
    "kpc2/Myr2": 1.0,
    "km2/s2": 1.0227121650537077e-3 ** 2,
}


@dataclass(frozen=True)
class Quantity:
    value: object
    unit: str

    def to_base(self):
        return self.value * TO_BASE[self.unit]

    def to(self, unit):
        return Quantity(self.to_base() / TO_BASE[unit], unit)


_KERNELS = {}


def compiled(fn, static_argnames=()):
    key = (fn, tuple(static_argnames))
    kernel = _KERNELS.get(key)
    if kernel is None:
        kernel = jax.jit(fn, static_argnames=static_argnames)
        _KERNELS[key] = kernel
    return kernel


def unitful(out_units, static_argnames=()):
    def decorate(fn):
        @functools.wraps(fn)
        def call(*args, **kwargs):
            values = [a.to_base() if isinstance(a, Quantity) else a for a in args]
            out = compiled(fn, static_argnames)(*values, **kwargs)
            if isinstance(out_units, tuple):
                return tuple(Quantity(v, u) for v, u in zip(out, out_units))
            return Quantity(out, out_units)

        return call

    return decorate
