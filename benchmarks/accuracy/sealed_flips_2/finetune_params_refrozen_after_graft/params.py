"""An immutable parameter mapping, as model libraries hand out from init, registered as a pytree."""

from collections.abc import Mapping

import jax


@jax.tree_util.register_pytree_with_keys_class
class FrozenParams(Mapping):
    def __init__(self, entries):
        self._entries = {k: freeze(v) for k, v in entries.items()}

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
        return cls(dict(zip(keys, children)))


def freeze(tree):
    return FrozenParams(tree) if isinstance(tree, Mapping) else tree


def unfreeze(tree):
    """A mutable copy (plain nested dicts) to edit."""
    if isinstance(tree, Mapping):
        return {k: unfreeze(v) for k, v in tree.items()}
    return tree
