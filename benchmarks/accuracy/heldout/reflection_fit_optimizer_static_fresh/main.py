"""Benchmark the reflection-point solver over a few transmitter/receiver layouts."""
import time

import jax.numpy as jnp

import optim
from tracing import minimize_path

WALL_ORIGIN = jnp.array([0.0, 0.0])
WALL_DIR = jnp.array([1.0, 0.0])  # the wall is the x axis

LAYOUTS = [
    ((-2.0, 1.0), (3.0, 2.0)),
    ((-1.0, 2.5), (2.0, 0.5)),
    ((0.5, 1.5), (4.0, 3.0)),
    ((-3.0, 0.8), (1.0, 1.2)),
]


def find_reflection(tx, rx, optimizer, t0=0.0):
    t, length = minimize_path(jnp.asarray(t0), jnp.asarray(tx), jnp.asarray(rx),
                              WALL_ORIGIN, WALL_DIR, optimizer=optimizer)
    return float(t), float(length)


def bench_layouts(layouts, learning_rate=0.1):
    timings = []
    for tx, rx in layouts:
        start = time.perf_counter()
        t, length = find_reflection(tx, rx, optimizer=optim.adam(learning_rate))  # expect: RTL204
        timings.append(time.perf_counter() - start)
        # image method: the exact reflection point for a wall on the x axis
        exact = tx[0] + (rx[0] - tx[0]) * tx[1] / (tx[1] + rx[1])
        print(f"tx={tx} rx={rx}: t={t:+.4f} (exact {exact:+.4f}) path={length:.4f}")
    return timings


if __name__ == "__main__":
    bench_layouts(LAYOUTS)
