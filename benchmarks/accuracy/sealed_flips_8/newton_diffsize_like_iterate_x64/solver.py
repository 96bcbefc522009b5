"""A Newton root finder with an init / step / terminate interface, for stepping through a solve by hand."""

import dataclasses
from typing import NamedTuple

import jax
import jax.numpy as jnp


class NewtonState(NamedTuple):
    f: jax.Array
    num_steps: jax.Array
    diffsize: jax.Array


@dataclasses.dataclass(frozen=True)
class Newton:
    rtol: float
    atol: float
    max_steps: int = 50

    def init(self, fn, y0, args):
        return NewtonState(
            f=fn(y0, args),
            num_steps=jnp.zeros((), jnp.int32),
            diffsize=jnp.zeros((), y0.dtype),
        )

    def step(self, fn, y, args, state):
        f = fn(y, args)
        jac = jax.jacfwd(fn)(y, args)
        diff = jnp.linalg.solve(jac, f)
        new_y = y - diff
        scale = self.atol + self.rtol * jnp.abs(new_y)
        diffsize = jnp.sqrt(jnp.mean(jnp.square(diff / scale)))
        return new_y, NewtonState(f, state.num_steps + 1, diffsize)

    def terminate(self, state):
        converged = (state.num_steps > 0) & (state.diffsize < 1.0)
        return converged | (state.num_steps >= self.max_steps)
