"""Michaelis-Menten kinetics with a competitive inhibitor; some parameters can be held fixed."""

from functools import partial

import jax
import jax.numpy as jnp

PARAMETERS = ("vmax", "km", "ki")


class ParameterStitcher:
    """Merges the free parameters being fitted with the ones held fixed."""

    def __init__(self, fixed):
        self.fixed_idx = tuple(PARAMETERS.index(name) for name in fixed)
        self.fixed_vals = tuple(fixed.values())
        self.free_idx = tuple(i for i in range(len(PARAMETERS)) if i not in self.fixed_idx)

    def __call__(self, free):
        full = jnp.zeros(len(PARAMETERS), free.dtype)
        full = full.at[jnp.array(self.free_idx)].set(free)
        return full.at[jnp.array(self.fixed_idx)].set(jnp.array(self.fixed_vals, free.dtype))


@partial(jax.jit, static_argnums=(0,))
def loss_and_grad(stitch, free, substrate, inhibitor, rate):
    def loss(free):
        vmax, km, ki = stitch(free)
        predicted = vmax * substrate / (km * (1.0 + inhibitor / ki) + substrate)
        return jnp.mean((predicted - rate) ** 2)

    return jax.value_and_grad(loss)(free)


class InhibitionModel:
    def __init__(self, fixed):
        self.fixed = dict(fixed)

    def stitcher(self):
        return ParameterStitcher(self.fixed)

    def fit(self, free, substrate, inhibitor, rate, steps, lr=0.5):
        for _ in range(steps):
            value, grad = loss_and_grad(self.stitcher(), free, substrate, inhibitor, rate)  # expect: RTL204
            free = free - lr * grad
        return free, float(value)
