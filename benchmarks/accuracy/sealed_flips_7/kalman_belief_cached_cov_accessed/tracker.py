"""One predict-and-update cycle of a constant-velocity tracker, jitted."""

import jax
import jax.numpy as jnp

from belief import GaussianBelief

DT = 0.5
F = jnp.array([[1, 0, DT, 0], [0, 1, 0, DT], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=jnp.float32)
H = jnp.eye(2, 4)
Q = 0.05 * jnp.eye(4)
R = 0.4 * jnp.eye(2)


@jax.jit
def track_step(belief, measurement):
    covariance = F @ jnp.linalg.inv(belief.precision) @ F.T + Q
    mean = F @ belief.mean
    precision = jnp.linalg.inv(covariance) + H.T @ jnp.linalg.inv(R) @ H
    info = jnp.linalg.inv(covariance) @ mean + H.T @ jnp.linalg.inv(R) @ measurement
    return GaussianBelief(jnp.linalg.solve(precision, info), precision)
