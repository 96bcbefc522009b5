"""A small consumption-savings life-cycle model: households choose how much of
their cash on hand to consume; employment follows a two-state Markov chain."""

from dataclasses import dataclass, field

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class Params:
    interest_rate: float = 0.03
    wage: float = 12.0
    benefit: float = 4.0
    consume_share: float = 0.35
    p_keep_job: float = 0.92
    p_find_job: float = 0.40


@dataclass
class InitialConditions:
    # starting assets of the four household types, in thousands
    wealth: list = field(default_factory=lambda: [0, 5, 20, 60])  # expect: RTL402
    employed: list = field(default_factory=lambda: [1, 1, 0, 1])


def build_initial_states(init):
    return {
        "wealth": jnp.asarray(init.wealth),  # expect: RTL402
        "employed": jnp.asarray(init.employed, dtype=jnp.int32),
    }


@jax.jit
def simulate_period(params, states, uniforms):
    r, wage, benefit, share, p_keep, p_find = params
    income = jnp.where(states["employed"] == 1, wage, benefit)
    cash = (1.0 + r) * states["wealth"] + income
    consumption = share * cash
    stay = jnp.where(states["employed"] == 1, uniforms < p_keep, uniforms < p_find)
    next_states = {
        "wealth": cash - consumption,
        "employed": stay.astype(jnp.int32),
    }
    return next_states, consumption
