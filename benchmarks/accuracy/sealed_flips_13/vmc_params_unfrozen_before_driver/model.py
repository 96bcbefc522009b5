"""A two-layer log-amplitude network for spin configurations; init returns frozen variables."""

import jax
import jax.numpy as jnp

from frozen import freeze


class LogCoshNet:
    def __init__(self, n_spins, hidden):
        self.n_spins = n_spins
        self.hidden = hidden

    def init(self, key):
        k1, k2 = jax.random.split(key)
        return freeze(
            {
                "params": {
                    "base": {"kernel": 0.1 * jax.random.normal(k1, (self.n_spins, self.hidden))},
                    "head": {"kernel": 0.1 * jax.random.normal(k2, (self.hidden,)), "bias": jnp.zeros(())},
                }
            }
        )

    @staticmethod
    def apply(params, spins):
        h = jnp.log(jnp.cosh(spins @ params["base"]["kernel"]))
        return h @ params["head"]["kernel"] + params["head"]["bias"]
