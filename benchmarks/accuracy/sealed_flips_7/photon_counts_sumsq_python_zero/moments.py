"""Streaming raw moments of detector photon counts, accumulated chunk by chunk on the device."""

import jax
import jax.numpy as jnp


@jax.jit
def accumulate_squares(total, counts):
    """Add the sum of squared counts of one readout chunk to the running total."""
    return total + jnp.sum(counts * counts)


class CountMoments:
    """Keeps the number of pixels, the running sum and the running sum of squares."""

    def __init__(self):
        self.n = 0
        self.total = 0
        self.sum_sq = 0  # expect: RTL401

    def update(self, counts):
        self.n += counts.size
        self.total += int(jnp.sum(counts))
        self.sum_sq = accumulate_squares(self.sum_sq, counts)

    def variance(self):
        mean = self.total / self.n
        return float(self.sum_sq) / self.n - mean * mean
