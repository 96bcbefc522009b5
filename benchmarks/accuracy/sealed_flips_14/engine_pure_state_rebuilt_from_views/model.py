"""A two-layer MLP whose parameters live on module objects, split into a pure State for jit."""

import jax
import jax.numpy as jnp

from state import State


class Linear:
    def __init__(self, key, d_in, d_out):
        self.kernel = jax.random.normal(key, (d_in, d_out)) * (1.0 / d_in**0.5)
        self.bias = jnp.zeros((d_out,))


class MLP:
    def __init__(self, key, d_in, hidden, d_out):
        k1, k2 = jax.random.split(key)
        self.layers = {"dense_0": Linear(k1, d_in, hidden), "dense_1": Linear(k2, hidden, d_out)}

    def split(self):
        return State(
            {
                "model": {
                    name: {"kernel": layer.kernel, "bias": layer.bias}
                    for name, layer in self.layers.items()
                }
            }
        )

    def update(self, state):
        """Publish parameters back to the live modules (what checkpointing reads)."""
        params = state["model"]
        for name, layer in self.layers.items():
            layer.kernel = params[name]["kernel"]
            layer.bias = params[name]["bias"]


def apply(params, x):
    h = jax.nn.relu(x @ params["dense_0"]["kernel"] + params["dense_0"]["bias"])
    return h @ params["dense_1"]["kernel"] + params["dense_1"]["bias"]
