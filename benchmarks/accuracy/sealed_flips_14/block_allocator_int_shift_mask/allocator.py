"""A paged KV-cache block allocator: bit i of a uint32 word is set while block i is free."""

import jax
import jax.numpy as jnp


def lowest_set_bit(mask):
    """Index of the lowest free block (32 when none is free)."""
    bits = (mask >> jnp.arange(32, dtype=mask.dtype)) & 1
    return jnp.where(jnp.any(bits == 1), jnp.argmax(bits == 1), 32)


def claim(mask):
    block = lowest_set_bit(mask)
    bit = 1 << block  # expect: RTL402
    return mask & ~bit, block  # expect: RTL402


def release(mask, block):
    return mask | (1 << block)


class BlockAllocator:
    def __init__(self, num_blocks=16):
        self.free = jnp.uint32((1 << num_blocks) - 1)  # expect: RTL402
        self._claim = jax.jit(claim)
        self._release = jax.jit(release)

    def allocate(self):
        self.free, block = self._claim(self.free)
        return int(block)

    def free_block(self, block):
        self.free = self._release(self.free, block)

    def num_free(self):
        return bin(int(self.free)).count("1")
