"""An adaptive Heun integrator, with an Euler step as its error estimate, run to a fixed end time."""

import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class SolverOptions:
    rtol: float = 1e-3
    atol: float = 1e-6
    max_steps: int = 200


def vector_field(t, y, args):
    w1, w2 = args
    return jnp.tanh(y @ w1) @ w2 - 0.1 * y


@partial(jax.jit, static_argnames=("options",))
def solve(y0, args, t1, options):
    def body(carry, _):
        t, y, dt = carry
        k1 = vector_field(t, y, args)
        k2 = vector_field(t + dt, y + dt * k1, args)
        y_high, y_low = y + 0.5 * dt * (k1 + k2), y + dt * k1
        scale = options.atol + options.rtol * jnp.abs(y_high)
        err = jnp.sqrt(jnp.mean(((y_high - y_low) / scale) ** 2))
        accept = (err <= 1.0) & (t < t1)
        dt_new = jnp.clip(dt * 0.9 * err ** -0.5, 1e-4, t1 - t + 1e-4)
        return (jnp.where(accept, t + dt, t), jnp.where(accept, y_high, y), dt_new), accept

    (t, y, _), accepted = jax.lax.scan(body, (0.0, y0, 0.01), None, length=options.max_steps)
    return y, accepted.sum()
