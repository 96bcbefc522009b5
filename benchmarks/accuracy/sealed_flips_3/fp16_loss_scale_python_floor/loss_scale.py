"""Dynamic loss scaling for float16 training: grow the scale after a run of finite steps, halve it on overflow."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

GROWTH_INTERVAL = 5
FACTOR = 2
MAX_LOSS_SCALE = 2.0**15
MIN_LOSS_SCALE = 1.0


class LossScale(NamedTuple):
    scale: jax.Array
    good_steps: jax.Array


def init_loss_scale(initial=2.0**12):
    return LossScale(jnp.asarray(initial, jnp.float16), jnp.zeros((), jnp.int32))


def all_finite(tree):
    leaves = jax.tree_util.tree_leaves(tree)
    return jnp.stack([jnp.isfinite(x).all() for x in leaves]).all()


def adjust(ls, grads_finite):
    ready = ls.good_steps + 1 >= GROWTH_INTERVAL
    grown = jnp.where(ready, jnp.minimum(ls.scale * FACTOR, MAX_LOSS_SCALE), ls.scale)
    shrunk = jnp.maximum(MIN_LOSS_SCALE, ls.scale / FACTOR)
    scale = jnp.where(grads_finite, grown, shrunk)
    good_steps = jnp.where(grads_finite & ~ready, ls.good_steps + 1, 0)
    return LossScale(scale, good_steps)
