"""An SIR epidemic simulated with lax.scan, for several contact rates."""

from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Population(NamedTuple):
    susceptible: jax.Array
    infected: jax.Array
    recovered: jax.Array


def infect(state, beta, gamma=0.1):
    new_inf = beta * state.susceptible * state.infected
    new_rec = gamma * state.infected
    nxt = Population(
        state.susceptible - new_inf, state.infected + new_inf - new_rec, state.recovered + new_rec
    )
    return nxt, nxt.infected


def simulate(beta, days=30):
    @partial(jax.jit, static_argnums=(1,))  # expect: RTL301
    def run(state, horizon):
        return jax.lax.scan(lambda s, _: infect(s, beta), state, None, length=horizon)[1]

    start = Population(jnp.float32(0.99), jnp.float32(0.01), jnp.float32(0.0))
    return run(start, days)


def peak_by_rate(rates):
    return {beta: float(simulate(beta).max()) for beta in rates}


if __name__ == "__main__":
    print(peak_by_rate([0.2, 0.3, 0.4]))
