"""Per-regime policy kernels of a small consumption-savings life-cycle model."""

import jax.numpy as jnp

CONSUMPTION_SHARES = jnp.linspace(0.05, 0.95, 19, dtype=jnp.float32)


def _crra(c, risk_aversion):
    return (c ** (1.0 - risk_aversion) - 1.0) / (1.0 - risk_aversion)


def _best_choice(cash, value_of):
    c = cash[:, None] * CONSUMPTION_SHARES[None, :]
    best = jnp.argmax(value_of(c, cash[:, None] - c), axis=1)
    consumption = c[jnp.arange(c.shape[0]), best]
    return consumption, cash - consumption


def consume_working(wealth, params):
    """Working agents: labour income (with an education premium) on top of wealth."""
    cash = wealth + params["wage"] * (1.0 + params["edu_premium"] * params["education"])
    rho, beta = params["risk_aversion"], params["beta"]
    return _best_choice(cash, lambda c, s: _crra(c, rho) + beta * _crra(s + 1.0, rho))


def consume_retired(wealth, params):
    """Retired agents: a pension and a warm-glow bequest motive."""
    cash = wealth + params["pension"]
    rho, bequest = params["risk_aversion"], params["bequest"]
    return _best_choice(cash, lambda c, s: _crra(c, rho) + bequest * jnp.log(s + 1.0))


def advance_wealth(savings, rate):
    return savings * (1.0 + rate)
