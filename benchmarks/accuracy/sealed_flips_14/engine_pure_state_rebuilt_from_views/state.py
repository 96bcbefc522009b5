"""An NNX-style State: a pytree mapping that stores nested plain dicts and wraps a nested dict in a
State when it is read with state[key]."""

import jax


@jax.tree_util.register_pytree_node_class
class State:
    def __init__(self, mapping):
        self._mapping = dict(mapping)

    def __getitem__(self, key):
        value = self._mapping[key]
        return State(value) if isinstance(value, dict) else value

    def __iter__(self):
        return iter(self._mapping)

    def raw_mapping(self):
        return self._mapping

    def tree_flatten(self):
        keys = tuple(sorted(self._mapping))
        return tuple(self._mapping[k] for k in keys), keys

    @classmethod
    def tree_unflatten(cls, keys, children):
        return cls(dict(zip(keys, children)))
