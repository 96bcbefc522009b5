"""Damped fixed-point relaxation of a small nonlinear equilibrium problem."""

from functools import partial

import jax
import jax.numpy as jnp
from config import make_config


@partial(jax.jit, static_argnums=(2,))
def relax(x0, coupling, cfg):
    x = x0
    for _ in range(cfg.max_iters):
        update = jnp.tanh(coupling @ x) - cfg.regularization * x
        x = (1.0 - cfg.damping) * x + cfg.damping * update
    return x


def run(x0, coupling):
    cfg = make_config()
    return relax(x0, coupling, cfg)  # expect: RTL204
