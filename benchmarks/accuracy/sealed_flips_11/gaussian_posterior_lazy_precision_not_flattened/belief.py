"""A Gaussian belief pytree whose precision matrix is computed lazily and cached on the instance."""

import functools

import jax
import jax.numpy as jnp


class lazy_property:
    """Computes the value on first access and caches it in the instance's __dict__."""

    def __init__(self, fn):
        self.fn = fn
        functools.update_wrapper(self, fn)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        value = self.fn(obj)
        obj.__dict__[self.fn.__name__] = value
        return value


@jax.tree_util.register_pytree_node_class
class GaussianBelief:
    def __init__(self, loc, cov):
        self.loc = loc
        self.cov = cov

    @lazy_property
    def precision(self):
        return jnp.linalg.inv(self.cov)

    def log_prob(self, x):
        d = x - self.loc
        _, logdet = jnp.linalg.slogdet(self.cov)
        return -0.5 * (d @ self.precision @ d + logdet + d.shape[0] * jnp.log(2 * jnp.pi))

    def tree_flatten(self):
        # Cached lazy values are recomputed after unflattening, so the structure never depends on them.
        return (self.loc, self.cov), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        loc, cov = children
        return cls(loc, cov)
