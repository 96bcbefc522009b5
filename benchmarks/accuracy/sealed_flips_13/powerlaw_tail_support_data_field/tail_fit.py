"""Fit a power-law tail: scan candidate lower cut-offs and keep the one whose fit is closest (KS)."""

import jax
import jax.numpy as jnp
import numpy as np

from distributions import LowerTruncatedPowerLaw


def ks_distance(dist, sorted_data):
    in_tail = dist.support(sorted_data)
    n = jnp.sum(in_tail)
    empirical = jnp.cumsum(in_tail) / n
    model = 1.0 - (jnp.maximum(sorted_data, dist.low) / dist.low) ** (1.0 - dist.alpha)
    return jnp.max(jnp.where(in_tail, jnp.abs(empirical - model), 0.0))


def mle_alpha(data, low):
    tail = data[data >= low]
    return 1.0 + tail.size / np.sum(np.log(tail / low))


class TailFitter:
    def __init__(self, quantiles=(0.5, 0.6, 0.7, 0.8, 0.9)):
        self.quantiles = quantiles
        self._ks = jax.jit(ks_distance)

    def fit(self, data):
        data = np.sort(np.asarray(data, np.float32))
        sorted_data = jnp.asarray(data)
        best = None
        for low in np.quantile(data, self.quantiles):
            dist = LowerTruncatedPowerLaw(mle_alpha(data, low), low)
            distance = float(self._ks(dist, sorted_data))
            if best is None or distance < best[0]:
                best = (distance, dist)
        return best
