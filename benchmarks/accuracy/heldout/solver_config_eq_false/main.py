"""Tune the coupling strength so that the relaxed state reaches a target norm."""

import jax.numpy as jnp
from solver import run

BASE = jnp.array([[0.0, 1.0, 0.5], [1.0, 0.0, 0.25], [0.5, 0.25, 0.0]])


def objective(strength, x0, target_norm=1.2):
    state = run(x0, strength * BASE)
    return float((jnp.linalg.norm(state) - target_norm) ** 2)


if __name__ == "__main__":
    x0 = jnp.ones(3) * 0.1
    low, high = 0.5, 3.0
    for trial in range(4):
        mid = 0.5 * (low + high)
        if objective(mid - 0.05, x0) < objective(mid + 0.05, x0):
            high = mid
        else:
            low = mid
        print(trial, low, high)
