"""A tiny JAX training project: an MLP classifier on synthetic data, plus a toy language model
decoded greedily. Only jax, jax.numpy and numpy.

This is the fixed copy of ``examples/``: every input reaches a jitted function with one fixed shape
and every static argument keeps one value, so each jitted function traces exactly once per run.
"""

from .config import Config

__all__ = ["Config"]
