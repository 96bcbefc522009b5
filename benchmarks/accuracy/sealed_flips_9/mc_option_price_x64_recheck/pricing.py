"""Monte Carlo pricing of a European call under geometric Brownian motion."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="n_paths")
def simulate_payoffs(key, spot, strike, vol, rate, maturity, n_paths):
    z = jax.random.normal(key, (n_paths,))
    terminal = spot * jnp.exp((rate - 0.5 * vol**2) * maturity + vol * jnp.sqrt(maturity) * z)
    return jnp.exp(-rate * maturity) * jnp.maximum(terminal - strike, 0.0)


def mc_price(key, spot, strike, vol, rate=0.02, maturity=1.0, n_paths=4096):
    payoffs = simulate_payoffs(key, spot, strike, vol, rate, maturity, n_paths)
    return jnp.mean(payoffs), jnp.std(payoffs) / n_paths**0.5
