"""FIRE energy minimisation (Bitzek et al. 2006) with an explicit, jit-friendly state."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class FireState(NamedTuple):
    position: jax.Array
    velocity: jax.Array
    force: jax.Array
    dt: jax.Array
    alpha: jax.Array
    n_pos: jax.Array


def fire_descent(force_fn, dt_start=0.1, dt_max=0.4, n_min=5, f_inc=1.1, f_dec=0.5,
                 alpha_start=0.1, f_alpha=0.99):
    dtype = jnp.float32

    def init(position):
        # Cast the scalar hyper-parameters once so init and step agree on their types.
        return FireState(position, jnp.zeros_like(position), force_fn(position),
                         jnp.asarray(dt_start, dtype=dtype),
                         jnp.asarray(alpha_start, dtype=dtype),
                         jnp.asarray(0, dtype=jnp.int32))

    def step(state):
        R, V, F, dt, alpha, n_pos = state
        R = R + dt * V + 0.5 * dt**2 * F
        F_new = force_fn(R)
        V = V + 0.5 * dt * (F + F_new)
        power = jnp.vdot(F_new, V)
        f_norm = jnp.sqrt(jnp.vdot(F_new, F_new))
        v_norm = jnp.sqrt(jnp.vdot(V, V))
        V = V + alpha * (F_new * v_norm / (f_norm + 1e-12) - V)
        uphill = power < 0
        accel = (~uphill) & (n_pos > n_min)
        n_pos = jnp.where(uphill, 0, n_pos + 1)
        dt = jnp.where(uphill, dt * f_dec, jnp.where(accel, jnp.minimum(dt * f_inc, dt_max), dt))
        alpha = jnp.where(uphill, alpha_start, jnp.where(accel, alpha * f_alpha, alpha))
        V = jnp.where(uphill, jnp.zeros_like(V), V)
        return FireState(R, V, F_new, dt, alpha, n_pos)

    return init, step
