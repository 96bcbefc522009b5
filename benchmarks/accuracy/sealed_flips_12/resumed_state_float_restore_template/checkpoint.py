"""A minimal checkpointer: leaves are stored as host arrays and restored into a template's dtypes."""

import jax
import jax.numpy as jnp
import numpy as np


class Checkpointer:
    def __init__(self):
        self._saved = None

    def save(self, state):
        self._saved = jax.tree.map(np.asarray, state)

    def abstract_like(self, state):
        # Restore every leaf in the training precision.
        return jax.tree.map(lambda x: jax.ShapeDtypeStruct(x.shape, jnp.float32), state)  # expect: RTL402

    def restore(self, template):
        return jax.tree.map(lambda t, v: jnp.asarray(v, dtype=t.dtype), template, self._saved)  # expect: RTL402
