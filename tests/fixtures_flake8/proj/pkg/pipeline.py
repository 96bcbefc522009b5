"""The intermediate module: it only forwards what main.py gives it."""

import jax.numpy as jnp

from pkg import kernels


def summarise(x):
    return kernels.total(x)


def deepen(x, depth):
    return kernels.stack(x, depth=depth)


def prefix_total(x, n):
    # n comes from the loop in main.py: every prefix length is a new input shape.
    return kernels.total(x[:n])  # expect: RTL101


def ramp(n):
    # pyproject.toml ignores RTL105: only an explicit `flake8 --select RTL105` shows it.
    return kernels.positions_sum(jnp.arange(n))  # expect-if-selected: RTL105
