"""Nested-sampling replacement step: move a live point along a slice direction above the likelihood floor.

Directions after the first come from differences of two live points, so they follow the live set's shape.
"""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class LiveSet(NamedTuple):
    points: jax.Array
    log_L: jax.Array
    direction: jax.Array


def init_live_set(key, points, log_L):
    direction = jax.random.normal(key, (points.shape[1],), dtype=points.dtype)
    return LiveSet(points, log_L, direction / jnp.linalg.norm(direction))


def replace_worst(loglike, key, live, n_tries=32):
    n_live = live.points.shape[0]
    key_seed, key_t, key_pair = jax.random.split(key, 3)
    worst = jnp.argmin(live.log_L)
    threshold = live.log_L[worst]
    seed = live.points[jax.random.randint(key_seed, (), 0, n_live)]
    t = jax.random.uniform(key_t, (n_tries, 1), minval=-2.0, maxval=2.0, dtype=seed.dtype)
    candidates = jnp.clip(seed + t * live.direction, 0.0, 1.0)
    cand_log_L = jax.vmap(loglike)(candidates)
    ok = cand_log_L > threshold
    pick = jnp.argmax(jnp.where(ok, jax.random.uniform(key_t, (n_tries,)), -1.0))
    moved = jnp.where(ok[pick], candidates[pick], seed)
    points = live.points.at[worst].set(moved.astype(live.points.dtype))
    log_L = live.log_L.at[worst].set(jnp.where(ok[pick], cand_log_L[pick], live.log_L[worst]))
    i, j = jax.random.choice(key_pair, n_live, (2,), replace=False)
    direction = points[i] - points[j]
    return LiveSet(points, log_L, direction / jnp.linalg.norm(direction)), threshold
