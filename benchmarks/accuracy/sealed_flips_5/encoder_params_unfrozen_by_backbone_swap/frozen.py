"""An immutable parameter mapping (in the style of flax's FrozenDict), registered as a pytree node."""

from collections.abc import Mapping

import jax


@jax.tree_util.register_pytree_with_keys_class
class FrozenParams(Mapping):
    def __init__(self, entries):
        self._entries = dict(entries)

    def __getitem__(self, key):
        return self._entries[key]

    def __iter__(self):
        return iter(self._entries)

    def __len__(self):
        return len(self._entries)

    def __repr__(self):
        return f"FrozenParams({self._entries!r})"

    def tree_flatten_with_keys(self):
        keys = sorted(self._entries)
        return [(jax.tree_util.DictKey(k), self._entries[k]) for k in keys], tuple(keys)

    @classmethod
    def tree_unflatten(cls, keys, children):
        return cls(zip(keys, children))


def freeze(tree):
    """Nested dicts -> nested FrozenParams."""
    if isinstance(tree, Mapping):
        return FrozenParams({k: freeze(v) for k, v in tree.items()})
    return tree


def unfreeze(tree):
    """Nested FrozenParams -> nested plain dicts, so that entries can be replaced."""
    if isinstance(tree, Mapping):
        return {k: unfreeze(v) for k, v in tree.items()}
    return tree
