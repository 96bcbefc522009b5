"""Compare the model against measurements taken at several times."""

import jax.numpy as jnp
import numpy as np
from integrate import ivp


class DecayExperiment:
    def __init__(self, y0, rate, first=0.5, last=3.0, num=6):
        self.y0 = jnp.asarray(y0, dtype=jnp.float32)
        self.rate = jnp.float32(rate)
        self.times = [float(t) for t in np.linspace(first, last, num)]

    def predictions(self):
        return {t1: ivp(t1, self.y0, self.rate) for t1 in self.times}

    def residuals(self, measured):
        return [float(jnp.sum((ivp(t1, self.y0, self.rate) - measured[t1]) ** 2)) for t1 in self.times]
