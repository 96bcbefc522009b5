"""Mirror-descent estimator of a joint distribution from noisy marginal measurements.

Public linear constraints (known sub-totals) are pytrees and travel through jit as
dynamic arguments, next to the measurements.
"""

from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class LinearConstraint(NamedTuple):
    weights: jax.Array  # indicator over the cells of the joint domain
    target: jax.Array   # the published sub-total


class Measurement(NamedTuple):
    query: jax.Array    # (m, n_cells) marginal query matrix
    noisy: jax.Array    # (m,) noisy answers
    stddev: jax.Array   # noise scale


@dataclass(frozen=True)
class MirrorDescent:
    iters: int = 200
    step: float = 0.05

    def estimate(self, measurement, constraints, known_total):
        n_cells = measurement.query.shape[1]
        logits = jnp.zeros(n_cells, dtype=jnp.float32)
        total = jnp.asarray(known_total, dtype=jnp.float32)
        return _multi_step(self, logits, measurement, constraints, total)


def _loss(logits, measurement, constraints, total):
    counts = total * jax.nn.softmax(logits)
    resid = (measurement.query @ counts - measurement.noisy) / measurement.stddev
    loss = 0.5 * jnp.sum(resid ** 2)
    for c in constraints:
        loss = loss + 0.5 * (jnp.dot(c.weights, counts) - c.target) ** 2
    return loss


@partial(jax.jit, static_argnames=("est",))
def _multi_step(est, logits, measurement, constraints, total):
    grad_fn = jax.grad(_loss)

    def body(_, z):
        g = grad_fn(z, measurement, constraints, total)
        return z - est.step * g / total

    logits = jax.lax.fori_loop(0, est.iters, body, logits)
    return total * jax.nn.softmax(logits)
