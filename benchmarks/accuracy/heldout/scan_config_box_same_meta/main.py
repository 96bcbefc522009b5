"""Fit a damping vector by trying a few candidates; each candidate is a new ConfigBox."""

import jax.numpy as jnp
from config_box import ConfigBox
from runner import run_scan

SCALE = 2


def score(vec, seq, target):
    last, _ = run_scan(ConfigBox(vec, SCALE), seq)
    return float(jnp.sum((last - target) ** 2))


if __name__ == "__main__":
    seq = jnp.array([0.5, 0.25, 0.125])
    target = jnp.array([0.2, 0.4])
    candidates = [jnp.array([a, b]) for a, b in [(0.0, 0.0), (0.1, -0.2), (-0.3, 0.3), (0.2, 0.1)]]
    scores = [score(v, seq, target) for v in candidates]
    best = min(range(len(scores)), key=scores.__getitem__)
    print("scores:", [round(s, 4) for s in scores], "best:", candidates[best])
