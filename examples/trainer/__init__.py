"""A tiny JAX training project: an MLP classifier on synthetic data, plus a toy language model
decoded greedily. Only jax, jax.numpy and numpy.

This copy contains re-trace bugs on purpose; each line to change ends with an "expect" comment that
names the rule (see ../README.md). ``examples_fixed/`` holds the same project with every bug fixed.
"""

from .config import Config

__all__ = ["Config"]
