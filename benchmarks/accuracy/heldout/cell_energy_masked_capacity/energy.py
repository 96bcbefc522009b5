"""Pair energy summed within each cell, counting only real (unmasked) pairs."""

import jax
import jax.numpy as jnp


@jax.jit
def cell_energy(padded, mask, eps):
    d = padded[:, :, None, :] - padded[:, None, :, :]
    r2 = jnp.sum(d ** 2, axis=-1) + eps
    pair = mask[:, :, None] & mask[:, None, :] & ~jnp.eye(padded.shape[1], dtype=bool)
    return 0.5 * jnp.sum(jnp.where(pair, 1.0 / r2, 0.0), axis=(1, 2))
