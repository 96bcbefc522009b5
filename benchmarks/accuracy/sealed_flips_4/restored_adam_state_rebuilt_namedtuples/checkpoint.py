"""Save a training state as nested plain dicts (what goes to disk) and restore it onto a template."""

import collections

import numpy as np


def to_state_dict(tree):
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):
        return {"name": type(tree).__name__, "fields": {k: to_state_dict(v) for k, v in tree._asdict().items()}}
    if isinstance(tree, (tuple, list)):
        return {str(i): to_state_dict(v) for i, v in enumerate(tree)}
    if isinstance(tree, dict):
        return {k: to_state_dict(v) for k, v in tree.items()}
    return np.asarray(tree)


def from_state_dict(target, state):
    if isinstance(target, tuple) and hasattr(target, "_fields"):
        values = {k: from_state_dict(getattr(target, k), state["fields"][k]) for k in target._fields}
        rebuilt = collections.namedtuple(state["name"], list(values))  # expect: RTL403
        return rebuilt(**values)
    if isinstance(target, (tuple, list)):
        return type(target)(from_state_dict(v, state[str(i)]) for i, v in enumerate(target))
    if isinstance(target, dict):
        return {k: from_state_dict(v, state[k]) for k, v in target.items()}
    return np.asarray(state, dtype=np.asarray(target).dtype)
