"""Simulate a panel of households through a stylised life cycle: consume a share of
cash on hand, earn wages when employed, and switch employment status at random."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402

from grids import DiscreteGrid, LinSpacedGrid, build_initial_states  # noqa: E402

EMPLOYMENT = DiscreteGrid(("unemployed", "employed"))
WEALTH = LinSpacedGrid(0.0, 40.0, 50)
N_PERIODS = 5


class RetirementModel:
    def __init__(self, interest=0.03, wage=2.0, benefit=0.6, keep_job=0.9, find_job=0.4):
        self.interest = interest
        self.wage = wage
        self.benefit = benefit
        self.job_probs = jnp.array([find_job, keep_job])
        self.codes = EMPLOYMENT.to_jax()
        self.wealth_grid = WEALTH.to_jax()
        self._step = jax.jit(self.next_state)

    def consumption_share(self, period):
        # households consume more of their wealth as retirement approaches
        return 0.2 + 0.1 * period / N_PERIODS

    def next_state(self, wealth, employment, share, key):
        income = jnp.where(employment == self.codes[1], self.wage, self.benefit)
        cash = wealth * (1.0 + self.interest) + income
        consumption = share * cash
        new_wealth = jnp.clip(cash - consumption, self.wealth_grid[0], self.wealth_grid[-1])
        stay = jax.random.uniform(key, employment.shape) < self.job_probs[employment]
        new_employment = jnp.where(stay, self.codes[1], self.codes[0])
        return new_wealth, new_employment, consumption

    def simulate(self, initial_states, key):
        wealth = initial_states["wealth"]
        employment = initial_states["employment"]
        records = []
        for period in range(N_PERIODS):
            key, sub = jax.random.split(key)
            share = jnp.float64(self.consumption_share(period))
            wealth, employment, consumption = self._step(wealth, employment, share, sub)
            records.append(
                {
                    "period": period,
                    "mean_consumption": float(consumption.mean()),
                    "employment_rate": float(employment.mean()),
                }
            )
        return records


if __name__ == "__main__":
    model = RetirementModel()
    states = build_initial_states(200, EMPLOYMENT)
    for row in model.simulate(states, jax.random.PRNGKey(7)):
        print(row)
