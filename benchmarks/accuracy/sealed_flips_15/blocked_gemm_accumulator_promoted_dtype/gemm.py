"""A blocked matrix multiply that writes into an output of a chosen dtype: the partial products of one
block of the inner dimension at a time are added into an accumulator, as a generic matmul does."""

import jax
import jax.numpy as jnp


@jax.jit
def accumulate_block(acc, a_block, b_block):
    return acc + a_block @ b_block


class BlockedMatmul:
    def __init__(self, block=8):
        self.block = block

    def __call__(self, a, b, out_dtype):
        m, k = a.shape
        n = b.shape[1]
        acc = jnp.zeros((m, n), dtype=jnp.result_type(out_dtype, a.dtype, b.dtype))
        for start in range(0, k, self.block):
            stop = start + self.block
            acc = accumulate_block(acc, a[:, start:stop], b[start:stop, :])
        return acc.astype(out_dtype)
