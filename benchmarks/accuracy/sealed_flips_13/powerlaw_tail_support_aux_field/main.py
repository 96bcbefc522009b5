"""Estimate the tail exponent of synthetic heavy-tailed event sizes."""

import numpy as np

from tail_fit import TailFitter


def event_sizes(n=400, alpha=2.5, seed=0):
    rng = np.random.default_rng(seed)
    body = rng.lognormal(0.0, 0.5, n // 2)
    tail = (1.0 - rng.random(n - n // 2)) ** (-1.0 / (alpha - 1.0))
    return np.concatenate([body, tail])


def main():
    distance, dist = TailFitter().fit(event_sizes())
    print(f"alpha {float(dist.alpha):.2f} above {float(dist.low):.2f} (KS {distance:.3f})")


if __name__ == "__main__":
    main()
