"""The power series of log det(I + A), summed to a given depth with Hutchinson probes."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=3)
def reweighted_partial_sum(A, probes, q, num_terms):
    # sum over k <= K of (-1)^(k+1) tr(A^k) / k, each term divided by P(K >= k) = q^(k-1)
    v = probes
    total = jnp.zeros((), dtype=A.dtype)
    for k in range(1, num_terms + 1):
        v = v @ A
        trace_k = jnp.mean(jnp.sum(v * probes, axis=-1))
        total = total + (-1.0) ** (k + 1) * trace_k / k / q ** (k - 1)
    return total
