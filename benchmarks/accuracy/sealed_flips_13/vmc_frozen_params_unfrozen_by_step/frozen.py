"""An immutable nested mapping registered as a pytree, as Flax's FrozenDict is."""

from collections.abc import Mapping

import jax


class FrozenDict(Mapping):
    def __init__(self, *args, **kwargs):
        self._dict = {k: freeze(v) for k, v in dict(*args, **kwargs).items()}

    def __getitem__(self, key):
        return self._dict[key]

    def __iter__(self):
        return iter(self._dict)

    def __len__(self):
        return len(self._dict)

    def __repr__(self):
        return f"FrozenDict({self._dict!r})"

    def copy(self, add_or_replace):
        return FrozenDict({**self._dict, **add_or_replace})


def freeze(tree):
    return FrozenDict(tree) if isinstance(tree, dict) else tree


def unfreeze(tree):
    if isinstance(tree, (FrozenDict, dict)):
        return {k: unfreeze(v) for k, v in tree.items()}
    return tree


def _flatten(fd):
    keys = tuple(sorted(fd._dict))
    return tuple(fd._dict[k] for k in keys), keys


def _unflatten(keys, values):
    fd = object.__new__(FrozenDict)
    fd._dict = dict(zip(keys, values))
    return fd


jax.tree_util.register_pytree_node(FrozenDict, _flatten, _unflatten)
