"""Token sampling with a temperature schedule."""

import math
from functools import partial

import jax


@partial(jax.jit, static_argnames=("temperature",))
def draw(key, logits, temperature):
    return jax.random.categorical(key, logits / temperature)


class CosineTemperature:
    def __init__(self, start, end, steps):
        self.start, self.end, self.steps = start, end, steps

    def at(self, step):
        frac = min(step / self.steps, 1.0)
        return self.end + 0.5 * (self.start - self.end) * (1.0 + math.cos(math.pi * frac))
