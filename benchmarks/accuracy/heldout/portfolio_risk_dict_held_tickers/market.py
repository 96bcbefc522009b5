"""Synthetic daily closes for a small equity universe (stands in for the vendor feed)."""

import numpy as np

UNIVERSE = ("ARKO", "BLFN", "CRMX", "DYNA", "ELVT", "FRGE", "GLDR", "HALO")


class MarketData:
    def __init__(self, n_days, seed=11):
        rng = np.random.default_rng(seed)
        n = len(UNIVERSE)
        drift = rng.normal(0.0003, 0.0008, size=n)
        vol = rng.uniform(0.01, 0.025, size=n)
        rets = rng.normal(drift, vol, size=(n_days, n))
        # leadership rotates every few months, as it does in real tapes
        for k, start in enumerate(range(60, n_days, 45)):
            rets[start:start + 45, (3 * k) % n] += 0.004
        self.returns = rets.astype(np.float32)
        self.prices = 50.0 * np.cumprod(1.0 + rets, axis=0)

    def close(self, day):
        return {t: float(self.prices[day, i]) for i, t in enumerate(UNIVERSE)}

    def momentum(self, day, lookback):
        past = self.prices[day - lookback]
        return {t: float(self.prices[day, i] / past[i] - 1.0) for i, t in enumerate(UNIVERSE)}

    def window(self, day, length):
        """Trailing daily returns of every name in the universe."""
        return {t: self.returns[day - length:day, i] for i, t in enumerate(UNIVERSE)}
