"""Gyro-only attitude propagation for a small drone's flight controller log."""

import jax
import jax.numpy as jnp

import transformations as tf


def propagate(q, omega, dt):
    rate = jnp.sqrt(jnp.sum(omega * omega))
    dq = tf.quaternion_about_axis(rate * dt, omega)
    return tf.unit_vector(tf.quaternion_multiply(q, dq))


class AttitudeEstimator:
    def __init__(self, initial_attitude, dt):
        self.q = jnp.asarray(initial_attitude, jnp.float64)
        self.dt = dt
        self._propagate = jax.jit(propagate)

    def update(self, gyro_sample):
        self.q = self._propagate(self.q, gyro_sample, self.dt)
        return self.q
