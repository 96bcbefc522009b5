"""A two-layer network kept in float32 (its weights are loaded from a float32 checkpoint)."""

import jax
import jax.numpy as jnp


class MLP:
    def __init__(self, width):
        self.width = width

    def init(self, key):
        k1, k2 = jax.random.split(key)
        return {
            "w1": jax.random.normal(k1, (1, self.width), jnp.float32),
            "w2": jax.random.normal(k2, (self.width, 1), jnp.float32) / jnp.sqrt(self.width),
        }

    def apply(self, params, x):
        x = x.astype(jnp.float32)
        return jnp.tanh(x @ params["w1"]) @ params["w2"]
