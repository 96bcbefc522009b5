"""Kernel smoothing of a 1-D signal: raw features and smoothed curves share one jitted kernel."""

import jax
import jax.numpy as jnp
from jax.tree_util import Partial


@jax.jit
def rbf(x, lengthscale):
    gaps = x[:, None] - x[None, :]
    return jnp.exp(-0.5 * (gaps / lengthscale) ** 2)


def features(x, lengthscale):
    return rbf(x, lengthscale).sum(axis=1)  # expect: RTL404


def smooth(x, y, lengthscale):
    kernel = Partial(rbf, lengthscale=lengthscale)  # expect: RTL404
    weights = kernel(x)
    return weights @ y / weights.sum(axis=1)


def analyse(x, y, lengthscales):
    return [(features(x, ls), smooth(x, y, ls)) for ls in lengthscales]


if __name__ == "__main__":
    x = jnp.linspace(0.0, 1.0, 16)
    analyse(x, jnp.sin(6.0 * x), [0.1, 0.2, 0.3])
