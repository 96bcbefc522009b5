"""An unbiased Russian-roulette estimate of log det(I + A): the series is cut at a random depth."""

import jax
import jax.numpy as jnp
import numpy as np
from series import reweighted_partial_sum


class RouletteLogDet:
    def __init__(self, dim, q=0.6, n_probes=8, seed=0):
        self.dim = dim
        self.q = q
        self.n_probes = n_probes
        self.rng = np.random.default_rng(seed)

    def draw_depth(self):
        # P(K >= k) = q^(k-1): a geometric number of terms
        return int(self.rng.geometric(1.0 - self.q))

    def __call__(self, A, key):
        probes = jax.random.rademacher(key, (self.n_probes, self.dim), dtype=jnp.float32)
        depth = self.draw_depth()
        return reweighted_partial_sum(A, probes, self.q, depth)  # expect: RTL201
