"""A tiny module system: init hands out frozen variables, apply returns mutated collections."""

from collections.abc import Mapping

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_with_keys_class
class FrozenVariables(Mapping):
    def __init__(self, entries):
        self._entries = {k: FrozenVariables(v) if isinstance(v, Mapping) else v for k, v in entries.items()}

    def __getitem__(self, key):
        return self._entries[key]

    def __iter__(self):
        return iter(self._entries)

    def __len__(self):
        return len(self._entries)

    def tree_flatten_with_keys(self):
        keys = sorted(self._entries)
        return [(jax.tree_util.DictKey(k), self._entries[k]) for k in keys], tuple(keys)

    @classmethod
    def tree_unflatten(cls, keys, children):
        return cls(dict(zip(keys, children, strict=True)))


class BatchNormMLP:
    """Dense -> batch norm -> ReLU -> Dense, with running statistics in a batch_stats collection."""

    def __init__(self, hidden=16, momentum=0.9):
        self.hidden = hidden
        self.momentum = momentum

    def init(self, key, x):
        k1, k2 = jax.random.split(key)
        params = {
            "dense1": jax.random.normal(k1, (x.shape[-1], self.hidden)) / jnp.sqrt(x.shape[-1]),
            "dense2": jax.random.normal(k2, (self.hidden,)) / jnp.sqrt(self.hidden),
        }
        stats = {"mean": jnp.zeros(self.hidden), "var": jnp.ones(self.hidden)}
        return FrozenVariables({"params": params, "batch_stats": stats})

    def apply(self, variables, x, train=False):
        h = x @ variables["params"]["dense1"]
        stats = variables["batch_stats"]
        if train:
            mean, var = h.mean(axis=0), h.var(axis=0)
            m = self.momentum
            new_stats = {"mean": m * stats["mean"] + (1 - m) * mean, "var": m * stats["var"] + (1 - m) * var}
        else:
            mean, var, new_stats = stats["mean"], stats["var"], stats
        h = jax.nn.relu((h - mean) / jnp.sqrt(var + 1e-5))
        return h @ variables["params"]["dense2"], {"batch_stats": new_stats}  # expect: RTL403
