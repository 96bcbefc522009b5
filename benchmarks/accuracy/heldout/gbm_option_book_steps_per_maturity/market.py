"""Market model and contract definitions for the Monte Carlo desk."""

from dataclasses import dataclass

import jax

STEPS_PER_YEAR = 52  # weekly monitoring dates


@dataclass(frozen=True)
class EuropeanOption:
    name: str
    strike: float
    maturity: float  # in years
    is_call: bool = True


@dataclass
class UnivariateGBM:
    """dS = mu S dt + sigma S dW, simulated on a weekly grid."""

    s0: float
    mu: float
    sigma: float

    def time_grid(self, maturity):
        n_steps = max(1, int(round(maturity * STEPS_PER_YEAR)))
        return n_steps, maturity / n_steps

    def draw_shocks(self, key, n_paths, maturity):
        n_steps, dt = self.time_grid(maturity)
        shocks = jax.random.normal(key, (n_paths, n_steps))  # expect: RTL105
        return shocks, dt
