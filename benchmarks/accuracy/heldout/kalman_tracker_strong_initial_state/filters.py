"""Constant-velocity Kalman filter for a 1-D range sensor on a mobile robot."""

import jax
import jax.numpy as jnp

Q_ACCEL = 0.05
R_RANGE = 0.04


def transition(dt):
    return jnp.array([[1.0, dt], [0.0, 1.0]], dtype=jnp.float32)


@jax.jit
def kf_step(x, P, z, loglik, dt):
    F = transition(dt)
    G = jnp.array([0.5 * dt * dt, dt], dtype=jnp.float32)
    x = F @ x
    P = F @ P @ F.T + Q_ACCEL * jnp.outer(G, G)
    innov = z - x[0]
    S = P[0, 0] + R_RANGE
    K = P[:, 0] / S
    x = x + K * innov
    P = P - jnp.outer(K, P[0, :])
    loglik = loglik - 0.5 * (jnp.log(2.0 * jnp.pi * S) + innov ** 2 / S)
    return x, P, loglik, innov / jnp.sqrt(S)


@jax.jit
def predict_ahead(x, P, horizon):
    F = transition(horizon)
    return F @ x, F @ P @ F.T
