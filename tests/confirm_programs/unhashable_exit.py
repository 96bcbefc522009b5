"""A list as a static argument ends the program with JAX's unhashable-static error (RTL203):
`retracelint confirm` reads it from what Python keeps of the error that ended the program, and
leaves the program's sys.excepthook as it was."""

import sys
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["axes"])
def normalise(x, axes):  # site: normalise
    return x / jnp.sum(x, axis=axes, keepdims=True)


print("sys.excepthook is Python's own:", sys.excepthook is sys.__excepthook__)
x = jnp.ones((2, 3))
print(normalise(x, axes=(0, 1)))
print(normalise(x, axes=[0, 1]))  # finding: RTL203 site=normalise param=axes expect=confirmed
