"""Streaming mean/variance of feature columns (Chan et al.'s parallel merge)."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Moments(NamedTuple):
    count: jax.Array
    mean: jax.Array
    m2: jax.Array

    @property
    def variance(self):
        return self.m2 / jnp.maximum(self.count - 1.0, 1.0)


def empty(dim):
    return Moments(count=jnp.zeros(()), mean=jnp.zeros((dim,)), m2=jnp.zeros((dim,)))


def of_batch(x):
    mean = x.mean(axis=0)
    return Moments(count=jnp.asarray(x.shape[0], jnp.float32), mean=mean, m2=((x - mean) ** 2).sum(axis=0))


def merge(a, b):
    na, ma, sa = a
    nb, mb, sb = b
    n = na + nb
    delta = mb - ma
    mean = ma + delta * nb / n
    m2 = sa + sb + delta**2 * na * nb / n
    return tuple((n, mean, m2))  # expect: RTL403
