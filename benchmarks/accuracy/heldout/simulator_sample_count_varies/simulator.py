"""A prior/likelihood simulator whose number of observations is drawn per batch."""

import numpy as np


class GaussianSimulator:
    def __init__(self, min_obs=10, max_obs=14, seed=0):
        self.min_obs = min_obs
        self.max_obs = max_obs
        self.rng = np.random.default_rng(seed)

    def context(self):
        return {"n": int(self.rng.integers(self.min_obs, self.max_obs + 1))}

    def prior(self):
        return {"mu": self.rng.normal(), "sigma": self.rng.gamma(2.0)}

    def likelihood(self, n, mu, sigma):
        return {"y": self.rng.normal(mu, sigma, size=n).astype(np.float32)}  # expect: RTL105

    def sample(self):
        ctx = self.context()
        theta = self.prior()
        return theta, self.likelihood(ctx["n"], theta["mu"], theta["sigma"])
