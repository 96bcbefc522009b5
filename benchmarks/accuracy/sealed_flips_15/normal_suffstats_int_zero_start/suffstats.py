"""Sufficient statistics of a Normal fitted by maximum likelihood, accumulated chunk by chunk: the
sum and the sum of squares, then the mean and the standard deviation."""

import jax
import jax.numpy as jnp


@jax.jit
def accumulate(s, s2, chunk):
    return s + jnp.sum(chunk), s2 + jnp.sum(chunk * chunk)


class NormalStats:
    def __init__(self):
        self.reset()

    def reset(self):
        self.n = 0
        self.s = 0  # expect: RTL401, RTL402
        self.s2 = 0  # expect: RTL401, RTL402

    def update(self, chunk):
        self.s, self.s2 = accumulate(self.s, self.s2, chunk)
        self.n += chunk.shape[0]

    def fit(self):
        mean = self.s / self.n
        var = self.s2 / self.n - mean**2
        return float(mean), float(jnp.sqrt(jnp.maximum(var, 0.0)))
