"""Observation models for GP regression."""

import jax.numpy as jnp


class GaussianLikelihood:
    """Gaussian observation noise with a trainable variance."""

    def __init__(self, variance=0.1):
        self.variance = jnp.array(variance)  # expect: RTL401

    def parameters(self):
        return {"variance": self.variance}

    def assign(self, values):
        self.variance = values["variance"]
