"""Constant-acceleration EKF for a quadrotor's planar position, fed by IMU and GPS."""

import jax
import jax.numpy as jnp


def _transition(dt):
    eye = jnp.eye(2)
    zero = jnp.zeros((2, 2))
    top = jnp.concatenate([eye, dt * eye], axis=1)
    bottom = jnp.concatenate([zero, eye], axis=1)
    return jnp.concatenate([top, bottom], axis=0)


@jax.jit
def predict(state, cov, accel, dt):
    f = _transition(dt)
    b = jnp.concatenate([0.5 * dt**2 * jnp.eye(2), dt * jnp.eye(2)], axis=0)
    q = 0.05 * b @ b.T
    return f @ state + b @ accel, f @ cov @ f.T + q


@jax.jit
def gps_update(state, cov, z):
    h = jnp.concatenate([jnp.eye(2), jnp.zeros((2, 2))], axis=1)
    r = 0.5 * jnp.eye(2)
    s = h @ cov @ h.T + r
    k = cov @ h.T @ jnp.linalg.inv(s)
    innov = z - h @ state
    return state + k @ innov, (jnp.eye(4) - k @ h) @ cov
