"""A program that runs with JAX_NO_TRACING itself, as teams do in production: warm up with tracing
allowed, then any re-trace raises. The probe must neither disturb the steady state nor miss the
re-trace that the program's own guard then blocks."""

import os

os.environ["JAX_NO_TRACING"] = "1"  # read by jax at import, exactly as without retracelint

import jax
import numpy as np


@jax.jit
def predict(x):  # site: predict
    return x @ x.T


@jax.jit
def score(x):  # site: score
    return (x**2).sum()


def main():
    small = jax.device_put(np.ones((4, 3), np.float32))
    bigger = jax.device_put(np.ones((5, 3), np.float32))
    with jax.no_tracing(False):
        predict(small)
        score(small)
    for _ in range(3):
        score(small)  # finding: RTL101 site=score param=x expect=not re-traced
        predict(small)
    try:
        predict(bigger)  # finding: RTL101 site=predict param=x expect=confirmed
    except RuntimeError as exc:
        print("blocked by the program's own no_tracing:", "no_tracing" in str(exc))
    print("no_tracing_env done")


if __name__ == "__main__":
    main()
