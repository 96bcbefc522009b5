"""A GRU cell that computes in a chosen dtype (bfloat16 here), Flax-style: inputs are cast to the
compute dtype, parameters are stored in it."""

import jax
import jax.numpy as jnp


class GRUCell:
    def __init__(self, features, hidden, key, dtype=jnp.bfloat16):
        self.hidden = hidden
        self.dtype = dtype
        kx, kh = jax.random.split(key)
        scale = 1.0 / features**0.5
        self.params = {
            "wx": (jax.random.normal(kx, (features, 3 * hidden)) * scale).astype(dtype),
            "wh": (jax.random.normal(kh, (hidden, 3 * hidden)) * scale).astype(dtype),
            "b": jnp.zeros((3 * hidden,), dtype=dtype),
        }

    def initialize_carry(self, batch):
        return jnp.zeros((batch, self.hidden), dtype=self.dtype)

    def apply(self, params, h, x):
        h = h.astype(self.dtype)
        x = x.astype(self.dtype)
        gx = x @ params["wx"] + params["b"]
        gh = h @ params["wh"]
        r, z, n = jnp.split(gx, 3, axis=-1)
        hr, hz, hn = jnp.split(gh, 3, axis=-1)
        reset = jax.nn.sigmoid(r + hr)
        update = jax.nn.sigmoid(z + hz)
        candidate = jnp.tanh(n + reset * hn)
        return (1.0 - update) * candidate + update * h
