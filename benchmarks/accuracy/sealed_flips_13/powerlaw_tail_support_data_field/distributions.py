"""Distributions as pytrees: data fields are leaves, aux fields go into the tree definition."""

import jax
import jax.numpy as jnp

from constraints import greater_than


class Distribution:
    pytree_data_fields = ()
    pytree_aux_fields = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        jax.tree_util.register_pytree_node(cls, cls._flatten, cls._unflatten)

    def _flatten(self):
        data = tuple(getattr(self, name) for name in self.pytree_data_fields)
        aux = tuple(getattr(self, name) for name in self.pytree_aux_fields)
        return data, aux

    @classmethod
    def _unflatten(cls, aux, data):
        obj = object.__new__(cls)
        for name, value in zip(cls.pytree_data_fields, data):
            setattr(obj, name, value)
        for name, value in zip(cls.pytree_aux_fields, aux):
            setattr(obj, name, value)
        return obj

    @property
    def support(self):
        return self._support


class LowerTruncatedPowerLaw(Distribution):
    """p(x) = (alpha - 1) / low * (x / low) ** -alpha for x >= low."""

    pytree_data_fields = ("alpha", "low", "_support")

    def __init__(self, alpha, low):
        self.alpha = jnp.asarray(alpha, jnp.float32)
        self.low = jnp.asarray(low, jnp.float32)
        self._support = greater_than(float(low))

    def log_prob(self, x):
        safe = jnp.maximum(x, self.low)
        lp = jnp.log(self.alpha - 1.0) - jnp.log(self.low) - self.alpha * jnp.log(safe / self.low)
        return jnp.where(self.support(x), lp, -jnp.inf)
