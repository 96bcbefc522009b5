"""A constant-velocity Kalman filter object whose state fields are updated in place every step."""

import jax
import jax.numpy as jnp


@jax.jit
def predict(mean, cov, transition, noise):
    return transition @ mean, transition @ cov @ transition.T + noise


@jax.jit
def correct(mean, cov, observation, obs_matrix, obs_noise):
    s = obs_matrix @ cov @ obs_matrix.T + obs_noise
    gain = cov @ obs_matrix.T @ jnp.linalg.inv(s)
    mean = mean + gain @ (observation - obs_matrix @ mean)
    return mean, (jnp.eye(mean.shape[0]) - gain @ obs_matrix) @ cov


class Tracker:
    def __init__(self, dt=1.0):
        self.mean = jnp.zeros(2)
        self.cov = jnp.eye(2)
        self.transition = jnp.array([[1.0, dt], [0.0, 1.0]])
        self.noise = 0.01 * jnp.eye(2)
        self.obs_matrix = jnp.array([[1.0, 0.0]])
        self.obs_noise = jnp.array([[0.5]])

    def step(self, observation):
        self.mean, self.cov = predict(self.mean, self.cov, self.transition, self.noise)
        self.mean, self.cov = correct(
            self.mean, self.cov, observation, self.obs_matrix, self.obs_noise
        )
        return self.mean


def track(observations):
    tracker = Tracker()
    return [tracker.step(jnp.array([z])) for z in observations]


if __name__ == "__main__":
    track([0.1, 1.2, 1.9, 3.1, 4.0])
