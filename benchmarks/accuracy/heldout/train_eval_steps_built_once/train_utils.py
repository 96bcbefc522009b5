"""Compile helpers shared by every trainer script."""

from functools import partial

import jax
from steps import eval_step, train_step


def jit_train_and_eval_steps(config):
    """Bind the config and jit both steps; callers keep the results for the whole run."""
    p_train_step = jax.jit(partial(train_step, config), donate_argnums=0)
    p_eval_step = jax.jit(partial(eval_step, config))
    return p_train_step, p_eval_step
