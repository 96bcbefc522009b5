"""Trained NumPy weights baked into the compiled program as constants."""

from functools import partial

import jax
import jax.numpy as jnp


class FrozenWeights:
    """NumPy arrays are unhashable; hashing the holder by identity lets them be a static argument."""

    def __init__(self, arrays):
        self.arrays = tuple(arrays)

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other


@partial(jax.jit, static_argnums=(1,))
def forward(x, frozen):
    h = x
    for w in frozen.arrays[:-1]:
        h = jnp.tanh(h @ w)
    return h @ frozen.arrays[-1]
