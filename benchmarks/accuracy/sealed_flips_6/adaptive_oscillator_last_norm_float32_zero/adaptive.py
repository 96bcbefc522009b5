"""An adaptive Heun/Euler integrator whose state is a NamedTuple carried through one jitted step."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

SAFETY = 0.9
RTOL = 1e-3


class AdaptiveState(NamedTuple):
    t: jax.Array
    y: jax.Array
    dt: jax.Array
    last_norm: jax.Array
    n_rejected: jax.Array


def initial_state(y0, dt0):
    return AdaptiveState(
        t=jnp.zeros((), jnp.float32),
        y=y0,
        dt=jnp.asarray(dt0, jnp.float32),
        last_norm=jnp.zeros((), jnp.float32),
        n_rejected=jnp.zeros((), jnp.int32),
    )


def error_norm(err, y):
    scale = RTOL * (1.0 + jnp.abs(y))
    return jnp.sqrt(jnp.mean((err / scale) ** 2))


def make_step(rhs):
    @jax.jit
    def adaptive_step(state):
        k1 = rhs(state.t, state.y)
        euler = state.y + state.dt * k1
        k2 = rhs(state.t + state.dt, euler)
        heun = state.y + state.dt / 2 * (k1 + k2)
        norm = error_norm(heun - euler, state.y)
        accept = norm <= 1.0
        factor = jnp.clip(SAFETY * norm ** -0.5, 0.2, 5.0)
        return AdaptiveState(
            t=jnp.where(accept, state.t + state.dt, state.t),
            y=jnp.where(accept, heun, state.y),
            dt=state.dt * factor,
            last_norm=jnp.where(accept, norm, state.last_norm),
            n_rejected=state.n_rejected + jnp.where(accept, 0, 1),
        )

    return adaptive_step
