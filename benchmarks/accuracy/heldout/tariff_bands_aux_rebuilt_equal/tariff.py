"""A tiered electricity tariff as a pytree: band edges are static, prices are leaves."""

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Tariff:
    def __init__(self, prices, band_edges, currency):
        self.prices = prices
        self.band_edges = tuple(float(e) for e in band_edges)
        self.currency = currency

    def tree_flatten(self):
        return (self.prices,), (self.band_edges, self.currency)

    @classmethod
    def tree_unflatten(cls, aux, children):
        band_edges, currency = aux
        return cls(children[0], band_edges, currency)


def tariff_for_month(config, month):
    """Build this month's tariff from the utility's published table."""
    prices = jnp.asarray(config["prices"][month], jnp.float32)
    return Tariff(prices, config["band_edges"], config["currency"])
