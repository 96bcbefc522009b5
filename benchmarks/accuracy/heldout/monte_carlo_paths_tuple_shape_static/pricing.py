"""Geometric Brownian motion Monte Carlo pricer for a small book of European options."""

from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class MCConfig:
    n_paths: int = 256
    n_steps: int = 16
    antithetic: bool = True


def path_shape(cfg):
    # random.normal wants a shape tuple; built fresh from the config on every request
    return (cfg.n_paths, cfg.n_steps)


@partial(jax.jit, static_argnames=("shape", "antithetic"))
def simulate_terminal(key, spot, rate, vol, maturity, shape, antithetic):
    n_paths, n_steps = shape
    dt = maturity / n_steps
    z = jax.random.normal(key, shape)
    if antithetic:
        z = jnp.concatenate([z, -z], axis=0)
    log_steps = (rate - 0.5 * vol**2) * dt + vol * jnp.sqrt(dt) * z
    return spot * jnp.exp(jnp.sum(log_steps, axis=1))


@jax.jit
def discounted_payoff(terminal, strike, rate, maturity, sign):
    payoff = jnp.maximum(sign * (terminal - strike), 0.0)
    return jnp.exp(-rate * maturity) * jnp.mean(payoff)


class MonteCarloPricer:
    def __init__(self, cfg, seed=0):
        self.cfg = cfg
        self.key = jax.random.PRNGKey(seed)

    def price(self, option, spot, rate, vol):
        self.key, sub = jax.random.split(self.key)
        terminal = simulate_terminal(
            sub, spot, rate, vol, option["maturity"],
            shape=path_shape(self.cfg), antithetic=self.cfg.antithetic,
        )
        sign = 1.0 if option["kind"] == "call" else -1.0
        return discounted_payoff(terminal, option["strike"], rate, option["maturity"], sign)
