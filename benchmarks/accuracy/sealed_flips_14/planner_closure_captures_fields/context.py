"""A planning context: a dict pytree with the robot's points, the goal and a cost closure made
with jax.tree_util.Partial (a pytree whose captured arguments are its children)."""

import jax.numpy as jnp
from jax.tree_util import Partial


def pose(ctx, conf):
    return ctx["robot"] + conf


def goal_distance(ctx, conf):
    return jnp.min(jnp.abs(ctx["goal"] - pose(ctx, conf)))


def make_closure(ctx):
    return Partial(goal_distance, {"robot": ctx["robot"], "goal": ctx["goal"]})


def impute_closure(ctx):
    """Attach a fresh cost closure to the context, overwriting the old one."""
    closure = make_closure(ctx)
    return {**ctx, "closure": closure}
