"""Entropic optimal transport between two single-cell snapshots (functional API)."""

from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class SinkhornConfig:
    epsilon: float = 0.05
    n_iters: int = 50


def _cost_matrix(x, y):
    sq = jnp.sum(x**2, axis=1)[:, None] + jnp.sum(y**2, axis=1)[None, :] - 2.0 * x @ y.T
    return sq / jnp.max(sq)


def _sinkhorn(x, y, a, b, epsilon, n_iters):
    cost = _cost_matrix(x, y)
    log_k = -cost / epsilon

    def body(carry, _):
        f, g = carry
        f = epsilon * (jnp.log(a) - jax.nn.logsumexp(log_k + g[None, :] / epsilon, axis=1))
        g = epsilon * (jnp.log(b) - jax.nn.logsumexp(log_k + f[:, None] / epsilon, axis=0))
        return (f, g), None

    (f, g), _ = jax.lax.scan(body, (jnp.zeros_like(a), jnp.zeros_like(b)), None, length=n_iters)
    plan = jnp.exp(log_k + f[:, None] / epsilon + g[None, :] / epsilon)
    return plan, jnp.sum(plan * cost)


def solve(x, y, a, b, config: SinkhornConfig):
    """Solve one transport problem; the compiled solver is built for this config."""
    solver = jax.jit(partial(_sinkhorn, epsilon=config.epsilon, n_iters=config.n_iters))  # expect: RTL301
    return solver(x, y, a, b)
