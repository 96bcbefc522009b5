"""Snapshots of the learner state, restored against a template that fixes every leaf's dtype."""

import io

import jax.numpy as jnp
import numpy as np

from learner import LearnerState


def state_template(n_features):
    """The shapes and dtypes a restored state must have."""
    return LearnerState(jnp.zeros(n_features), jnp.zeros(n_features), jnp.zeros((), dtype=jnp.int32))


def save_snapshot(state):
    buffer = io.BytesIO()
    np.savez(buffer, **{name: np.asarray(leaf) for name, leaf in state._asdict().items()})
    return buffer.getvalue()


def load_snapshot(blob, template):
    saved = np.load(io.BytesIO(blob))
    # Like a standard restore: each leaf is read back in the template's dtype.
    leaves = {name: jnp.asarray(saved[name], dtype=leaf.dtype) for name, leaf in template._asdict().items()}
    return LearnerState(**leaves)
