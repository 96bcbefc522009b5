"""Backtest an AR(3) model on a noisy seasonal series."""

import numpy as np
from backtest import rolling_backtest

if __name__ == "__main__":
    rng = np.random.default_rng(0)
    t = np.arange(72)
    series = (np.sin(2 * np.pi * t / 12) + 0.1 * rng.standard_normal(72)).astype(np.float32)
    errors = rolling_backtest(series)
    print(len(errors), [round(e, 3) for e in errors])
