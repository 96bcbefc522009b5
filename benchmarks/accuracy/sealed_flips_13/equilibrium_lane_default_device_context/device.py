"""Device placement helpers for the solver's host loop."""

import contextlib

import jax


def device_context(device):
    """Run the enclosed computations on ``device`` (or wherever JAX chooses when it is None)."""
    return jax.default_device(device) if device is not None else contextlib.nullcontext()


def placement_neutral(tree):
    """Clear the caller's default device when every array in ``tree`` is already committed to one.

    Committed arguments decide where a jitted call runs anyway, so the context only changes the call's
    cache key.
    """
    leaves = [x for x in jax.tree.leaves(tree) if isinstance(x, jax.Array)]
    if leaves and all(x.committed for x in leaves):
        return jax.default_device(None)
    return contextlib.nullcontext()
