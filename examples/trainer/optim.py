"""Plain SGD with a decaying learning rate, linear warm-up and gradient clipping."""

from functools import partial

import jax
import jax.numpy as jnp

from .config import Config
from .model import Params


def lr_schedule(cfg: Config, epoch: int) -> float:
    """Exponential decay per epoch."""
    return cfg.lr * cfg.lr_decay**epoch


@partial(jax.jit, static_argnames=("lr",))
def sgd_update(params: Params, grads: Params, lr: float) -> Params:
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


# step is static because of the Python `if` below (a traced step cannot drive a Python branch).
@partial(jax.jit, static_argnames=("step", "warmup_steps"))
def warmup_scale(grads: Params, step: int, warmup_steps: int) -> Params:
    """Scale the gradients linearly from 1/warmup_steps up to 1 over the first warmup steps."""
    if step < warmup_steps:
        return jax.tree.map(lambda g: g * (step + 1) / warmup_steps, grads)
    return grads


def clip_by_global_norm(grads: Params, max_norm: float) -> tuple[Params, jax.Array]:
    """Scale the gradients down so that their global L2 norm is at most max_norm."""

    # A nested def is a new function object on every call, so this jit starts with an empty trace
    # cache each time: it traces and compiles again at every training step.
    @jax.jit  # expect: RTL301
    def clip(tree: Params) -> tuple[Params, jax.Array]:
        norm = jnp.sqrt(sum(jnp.sum(leaf**2) for leaf in jax.tree.leaves(tree)))
        scale = jnp.minimum(1.0, max_norm / (norm + 1e-6))
        return jax.tree.map(lambda g: g * scale, tree), norm

    return clip(grads)
