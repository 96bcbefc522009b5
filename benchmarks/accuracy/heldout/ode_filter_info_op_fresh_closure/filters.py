"""Zeroth-order extended Kalman filter (EK0) steps for a probabilistic ODE solver."""

from functools import partial

import jax
import jax.numpy as jnp


def iwp_transition(dt, q=1.0):
    # Once-integrated Wiener process prior on (y, y').
    A = jnp.array([[1.0, dt], [0.0, 1.0]], dtype=jnp.float32)
    Q = q * jnp.array([[dt**3 / 3, dt**2 / 2], [dt**2 / 2, dt]], dtype=jnp.float32)
    return A, Q


@partial(jax.jit, static_argnums=(3,))
def ek0_step(mean, cov, t_dt, info_op):
    t, dt = t_dt[0], t_dt[1]
    A, Q = iwp_transition(dt)
    m_pred = A @ mean
    P_pred = A @ cov @ A.T + Q
    z = info_op(m_pred, t + dt)          # residual y' - f(y, t)
    H = jnp.array([0.0, 1.0], dtype=jnp.float32)
    S = H @ P_pred @ H + 1e-9
    K = P_pred @ H / S
    return m_pred - K * z, P_pred - jnp.outer(K, K) * S


@partial(jax.jit, static_argnums=(3,))
def ek1_step(mean, cov, t_dt, info_op):
    t, dt = t_dt[0], t_dt[1]
    A, Q = iwp_transition(dt)
    m_pred = A @ mean
    P_pred = A @ cov @ A.T + Q
    z, H = jax.value_and_grad(info_op)(m_pred, t + dt)
    S = H @ P_pred @ H + 1e-9
    K = P_pred @ H / S
    return m_pred - K * z, P_pred - jnp.outer(K, K) * S


STEPPERS = {"ek0": ek0_step, "ek1": ek1_step}
