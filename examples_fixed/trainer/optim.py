"""Plain SGD with a decaying learning rate, linear warm-up and gradient clipping."""

from functools import partial

import jax
import jax.numpy as jnp

from .config import Config
from .model import Params


def lr_schedule(cfg: Config, epoch: int) -> float:
    """Exponential decay per epoch."""
    return cfg.lr * cfg.lr_decay**epoch


# lr is traced: a new learning rate is a new value of the same f32[] input, not a new trace.
@jax.jit
def sgd_update(params: Params, grads: Params, lr: float) -> Params:
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


# step is traced (jnp.minimum instead of a Python `if`); warmup_steps comes from the fixed config,
# so as a static argument it keeps one value for the whole run.
@partial(jax.jit, static_argnames=("warmup_steps",))
def warmup_scale(grads: Params, step: int, warmup_steps: int) -> Params:
    """Scale the gradients linearly from 1/warmup_steps up to 1 over the first warmup steps."""
    scale = jnp.minimum(1.0, (step + 1) / warmup_steps)
    return jax.tree.map(lambda g: g * scale, grads)


# Defined once at module level; max_norm is a constant of the config, so static is fine.
@partial(jax.jit, static_argnames=("max_norm",))
def clip_by_global_norm(grads: Params, max_norm: float) -> tuple[Params, jax.Array]:
    """Scale the gradients down so that their global L2 norm is at most max_norm."""
    norm = jnp.sqrt(sum(jnp.sum(leaf**2) for leaf in jax.tree.leaves(grads)))
    scale = jnp.minimum(1.0, max_norm / (norm + 1e-6))
    return jax.tree.map(lambda g: g * scale, grads), norm
