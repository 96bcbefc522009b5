"""Price a small book of European options by Monte Carlo under a GBM model.

Each contract gets its own path simulation on a weekly grid, and the closed-form
Black-Scholes price is printed next to it as a sanity check.
"""

import math

import jax
import jax.numpy as jnp

from market import EuropeanOption, UnivariateGBM

N_PATHS = 4000
RATE = 0.03


@jax.jit
def simulate_terminal_prices(s0, mu, sigma, dt, shocks):
    increments = (mu - 0.5 * sigma**2) * dt + sigma * jnp.sqrt(dt) * shocks
    log_paths = jnp.log(s0) + jnp.cumsum(increments, axis=1)
    return jnp.exp(log_paths[:, -1])


@jax.jit
def discounted_payoff(terminal, strike, rate, maturity, is_call):
    call = jnp.maximum(terminal - strike, 0.0)
    put = jnp.maximum(strike - terminal, 0.0)
    payoff = jnp.where(is_call, call, put)
    price = jnp.exp(-rate * maturity) * jnp.mean(payoff)
    stderr = jnp.exp(-rate * maturity) * jnp.std(payoff) / jnp.sqrt(payoff.shape[0])
    return price, stderr


def black_scholes(s0, strike, rate, sigma, maturity, is_call):
    d1 = (math.log(s0 / strike) + (rate + 0.5 * sigma**2) * maturity) / (sigma * math.sqrt(maturity))
    d2 = d1 - sigma * math.sqrt(maturity)
    cdf = lambda x: 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))
    if is_call:
        return s0 * cdf(d1) - strike * math.exp(-rate * maturity) * cdf(d2)
    return strike * math.exp(-rate * maturity) * cdf(-d2) - s0 * cdf(-d1)


class MonteCarloPricer:
    def __init__(self, model, n_paths, rate, seed=0):
        self.model = model
        self.n_paths = n_paths
        self.rate = rate
        self.key = jax.random.PRNGKey(seed)

    def price(self, option):
        self.key, sub = jax.random.split(self.key)
        shocks, dt = self.model.draw_shocks(sub, self.n_paths, option.maturity)
        terminal = simulate_terminal_prices(
            self.model.s0, self.rate, self.model.sigma, dt, shocks
        )
        return discounted_payoff(terminal, option.strike, self.rate, option.maturity, option.is_call)


def main():
    book = [
        EuropeanOption("SPX-C-3M", strike=100.0, maturity=0.25),
        EuropeanOption("SPX-P-6M", strike=95.0, maturity=0.5, is_call=False),
        EuropeanOption("SPX-C-3M-OTM", strike=110.0, maturity=0.25),
        EuropeanOption("SPX-C-1Y", strike=105.0, maturity=1.0),
        EuropeanOption("SPX-P-6M-ATM", strike=100.0, maturity=0.5, is_call=False),
    ]
    model = UnivariateGBM(s0=100.0, mu=0.07, sigma=0.2)
    pricer = MonteCarloPricer(model, N_PATHS, RATE, seed=7)
    print(f"{'contract':<14}{'MC':>9}{'+/-':>8}{'BS':>9}")
    for option in book:
        mc, err = pricer.price(option)
        bs = black_scholes(model.s0, option.strike, RATE, model.sigma, option.maturity, option.is_call)
        print(f"{option.name:<14}{float(mc):9.3f}{float(err):8.3f}{bs:9.3f}")


if __name__ == "__main__":
    main()
