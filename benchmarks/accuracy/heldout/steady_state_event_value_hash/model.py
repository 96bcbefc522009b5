"""A two-species reaction network, pre-equilibrated before each simulated condition."""

from functools import partial

import jax
import jax.numpy as jnp
from events import SteadyStateEvent


def rhs(y, k):
    production, degradation, conversion = k
    a, b = y
    return jnp.array([production - (degradation + conversion) * a, conversion * a - degradation * b])


@partial(jax.jit, static_argnames=("event", "max_steps"))
def preequilibrate(y0, k, event, dt=0.05, max_steps=2000):
    def not_settled(state):
        i, y = state
        return (i < max_steps) & ~event(rhs(y, k), y)

    def euler(state):
        i, y = state
        return i + 1, y + dt * rhs(y, k)

    return jax.lax.while_loop(not_settled, euler, (0, y0))[1]


def run_simulations(parameter_sets, y0, event=None):
    event = event if event is not None else SteadyStateEvent()
    return [preequilibrate(y0, k, event=event) for k in parameter_sets]
