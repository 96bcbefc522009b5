"""Grow a spin chain site by site and follow its magnetization."""

import jax
import jax.numpy as jnp
from mps import MatrixProductState

SPIN_Z = jnp.array([[0.5, 0.0], [0.0, -0.5]])

if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    state = MatrixProductState()
    for _ in range(4):
        key, sub = jax.random.split(key)
        state.grow(sub)
        print(len(state.sites), float(state.expectation(SPIN_Z)))
