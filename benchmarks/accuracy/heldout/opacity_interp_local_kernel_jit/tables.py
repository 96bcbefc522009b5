"""A Rosseland-mean opacity table, looked up in log space."""

import jax.numpy as jnp
from interp import interp1d


class OpacityTable:
    def __init__(self, log_t, log_kappa):
        self.log_t = jnp.asarray(log_t, jnp.float32)
        self.log_kappa = jnp.asarray(log_kappa, jnp.float32)

    def lookup(self, temperature):
        return 10.0 ** interp1d(jnp.log10(temperature), self.log_t, self.log_kappa)


def kramers_table(n=16):
    log_t = jnp.linspace(3.5, 6.0, n)
    return OpacityTable(log_t, 2.0 - 3.5 * (log_t - 4.0))
