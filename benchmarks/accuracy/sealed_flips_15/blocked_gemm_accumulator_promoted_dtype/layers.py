"""An output projection whose weights stay float32 while the activations it hands on are bfloat16."""

import jax
import jax.numpy as jnp

from gemm import BlockedMatmul


class OutputProjection:
    def __init__(self, features, units, key, out_dtype=jnp.bfloat16):
        self.weight = jax.random.normal(key, (features, units), dtype=jnp.float32) / features**0.5
        self.out_dtype = out_dtype
        self.matmul = BlockedMatmul(block=8)

    def __call__(self, x):
        return self.matmul(x, self.weight, self.out_dtype)
