"""Holt's linear smoothing of half-precision sensor chunks, one lax.scan per chunk."""

import jax
import jax.numpy as jnp
from jax import lax

ALPHA = 0.3
BETA = 0.1


def _holt(carry, x):
    level, trend = carry
    new_level = ALPHA * x + (1 - ALPHA) * (level + trend)
    new_trend = BETA * (new_level - level) + (1 - BETA) * trend
    return (new_level, new_trend), new_level


@jax.jit
def smooth_chunk(carry, chunk):
    return lax.scan(_holt, carry, chunk)


class StreamSmoother:
    def __init__(self):
        self.carry = (jnp.zeros((), jnp.float16), jnp.zeros((), jnp.float16))

    def push(self, chunk):
        self.carry, smoothed = smooth_chunk(self.carry, chunk)
        return smoothed
