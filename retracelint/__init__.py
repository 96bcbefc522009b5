"""retracelint: find the code paths that make jax.jit functions re-trace and re-compile."""

__version__ = "0.1.0"
