"""A life-cycle household in the style of the parallel-computing benchmark: an asset grid, a
productivity shock with a Markov transition, CRRA utility and a finite horizon."""

import jax.numpy as jnp
import numpy as np


class Household:
    def __init__(self, n_assets=8, n_shocks=2, periods=3, sigma=2.0, beta=0.97, r=0.07, w=5.0):
        self.assets = jnp.asarray(np.linspace(0.1, 4.0, n_assets), dtype=jnp.float32)
        self.shocks = jnp.asarray(np.linspace(0.6, 1.4, n_shocks), dtype=jnp.float32)
        self.transition = jnp.asarray(
            np.full((n_shocks, n_shocks), 1.0 / n_shocks), dtype=jnp.float32
        )
        self.periods = periods
        self.sigma = sigma
        self.beta = beta
        self.r = r
        self.w = w

    def cash_on_hand(self):
        """Resources of every (asset, shock) state before choosing next period's assets."""
        return (1.0 + self.r) * self.assets[:, None] + self.w * self.shocks[None, :]

    def terminal_value(self):
        return jnp.zeros((self.assets.shape[0], self.shocks.shape[0]), dtype=jnp.float32)
