"""A Gaussian trial wavefunction for a harmonic trap, kept in single precision."""

import jax.numpy as jnp


class GaussianTrial:
    def __init__(self, width):
        self.width = width

    def log_psi(self, positions):
        return -jnp.sum(positions**2, axis=-1) / (2 * self.width**2)
