"""Small distribution objects that can be passed straight into jitted code.

Modelled on the "Jittable" idea: every attribute of the instance is flattened,
JAX arrays become pytree children and plain Python values are kept as metadata
(shape tuples, flags, ...), so no per-class flatten code is needed.
"""
import math

import jax
import jax.numpy as jnp


def _is_array(x):
    if isinstance(x, jax.core.Tracer):
        return True
    if isinstance(x, (bool, int, float, str)) or x is None:
        return False  # primitive values are treated as metadata
    try:
        jax.core.get_aval(x)
        return True
    except TypeError:
        return False


class Jittable:
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        jax.tree_util.register_pytree_node_class(cls)

    def tree_flatten(self):
        leaves, treedef = jax.tree_util.tree_flatten(self.__dict__)
        is_arr = tuple(_is_array(v) for v in leaves)
        children = [v if a else None for v, a in zip(leaves, is_arr)]
        meta = tuple(None if a else v for v, a in zip(leaves, is_arr))
        return children, (meta, is_arr, treedef)

    @classmethod
    def tree_unflatten(cls, aux, children):
        meta, is_arr, treedef = aux
        leaves = [c if a else m for c, m, a in zip(children, meta, is_arr)]
        obj = object.__new__(cls)
        obj.__dict__ = jax.tree_util.tree_unflatten(treedef, leaves)
        return obj


class Normal(Jittable):
    def __init__(self, loc, scale):
        self.loc = loc
        self.scale = scale

    def log_prob(self, x):
        z = (x - self.loc) / self.scale
        return -0.5 * z * z - jnp.log(self.scale) - 0.5 * math.log(2 * math.pi)

    def cdf(self, x):
        return 0.5 * (1.0 + jax.scipy.special.erf((x - self.loc) / (self.scale * math.sqrt(2.0))))
