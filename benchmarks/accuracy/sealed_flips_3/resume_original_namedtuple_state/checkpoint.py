"""Save training state as nested dicts of NumPy arrays and restore it into a target of the same layout."""

import collections
import pickle

import jax.numpy as jnp
import numpy as np


def to_state_dict(tree):
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):
        return {name: to_state_dict(value) for name, value in zip(tree._fields, tree)}
    if isinstance(tree, (tuple, list)):
        return [to_state_dict(value) for value in tree]
    if isinstance(tree, dict):
        return {key: to_state_dict(value) for key, value in tree.items()}
    return np.asarray(tree)


def from_state_dict(target, state):
    if isinstance(target, tuple) and hasattr(target, "_fields"):
        values = [from_state_dict(t, state[name]) for name, t in zip(target._fields, target)]
        cls = type(target)
        return cls(*values)
    if isinstance(target, (tuple, list)):
        return type(target)(from_state_dict(t, s) for t, s in zip(target, state))
    if isinstance(target, dict):
        return {key: from_state_dict(t, state[key]) for key, t in target.items()}
    return jnp.asarray(state, dtype=target.dtype)


def save(path, tree):
    with open(path, "wb") as f:
        pickle.dump(to_state_dict(tree), f)


def restore(path, target):
    with open(path, "rb") as f:
        return from_state_dict(target, pickle.load(f))
