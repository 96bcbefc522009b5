"""Backward induction with a grid search over next period's assets, one state at a time, as the
benchmark's value() function does: VV keeps the best value found so far for the state."""

import jax
import jax.numpy as jnp


@jax.jit
def better_value(VV, cash, next_assets, expected_next, beta, sigma):
    consumption = cash - next_assets
    utility = (jnp.maximum(consumption, 1e-6) ** (1.0 - sigma)) / (1.0 - sigma)
    utility = jnp.where(consumption > 0.0, utility + beta * expected_next, -1.0e10)
    return jnp.maximum(VV, utility)


class BackwardInduction:
    def __init__(self, household):
        self.household = household

    def state_value(self, cash, shock_index, value_next):
        hh = self.household
        expected = value_next @ hh.transition[shock_index]
        VV = jnp.float32(-10.0**3)
        for choice in range(hh.assets.shape[0]):
            VV = better_value(
                VV, cash, hh.assets[choice], expected[choice], hh.beta, hh.sigma
            )
        return VV

    def solve(self):
        hh = self.household
        cash = hh.cash_on_hand()
        value = hh.terminal_value()
        for _ in range(hh.periods):
            rows = []
            for ia in range(hh.assets.shape[0]):
                rows.append(
                    [self.state_value(cash[ia, ie], ie, value) for ie in range(hh.shocks.shape[0])]
                )
            value = jnp.asarray(rows, dtype=jnp.float32)
        return value
