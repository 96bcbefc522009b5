"""Motion and sensor models for a 2-D radar tracker.

The motion model is bound to the scan interval with ``jax.tree_util.Partial``
so it can be handed to the jitted filter as an ordinary argument: the interval
becomes a leaf of the pytree instead of a constant baked into the function.
"""

import jax.numpy as jnp
from jax.tree_util import Partial


def constant_velocity(dt, state):
    px, py, vx, vy = state
    return jnp.stack([px + dt * vx, py + dt * vy, vx, vy])


def range_bearing(state):
    px, py = state[0], state[1]
    return jnp.stack([jnp.sqrt(px**2 + py**2), jnp.arctan2(py, px)])


def motion_model(dt):
    """Dynamics over one radar scan interval of ``dt`` seconds."""
    return Partial(constant_velocity, dt)
