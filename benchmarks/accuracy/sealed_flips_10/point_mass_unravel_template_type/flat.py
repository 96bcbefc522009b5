"""Flatten a state to one vector (for the integrator's error control) and back."""

import jax
import jax.numpy as jnp


def ravel(state):
    return jnp.concatenate([jnp.ravel(leaf) for leaf in state])


def make_unravel(template):
    sizes = [leaf.size for leaf in template]
    shapes = [leaf.shape for leaf in template]

    @jax.jit
    def unravel(flat):
        parts, start = [], 0
        for size, shape in zip(sizes, shapes):
            parts.append(flat[start : start + size].reshape(shape))
            start += size
        return type(template)(*parts)

    return unravel
