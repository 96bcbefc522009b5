"""A Gaussian likelihood registered as a pytree: data are leaves, the model's name is aux data."""

import jax
import jax.numpy as jnp


def sine_model(times, amplitude, frequency):
    return amplitude * jnp.sin(frequency * times)


MODELS = {"sine": sine_model}


@jax.tree_util.register_pytree_node_class
class GaussianLikelihood:
    def __init__(self, times, data, sigma, model_name="sine"):
        self.times = times
        self.data = data
        self.sigma = sigma
        self.model_name = model_name

    def log_likelihood(self, amplitude, frequency):
        residual = self.data - MODELS[self.model_name](self.times, amplitude, frequency)
        return -0.5 * jnp.sum((residual / self.sigma) ** 2)

    def tree_flatten(self):
        return (self.times, self.data, self.sigma), self.model_name

    @classmethod
    def tree_unflatten(cls, model_name, children):
        return cls(*children, model_name=model_name)
