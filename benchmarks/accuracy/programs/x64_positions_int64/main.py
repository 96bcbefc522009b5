"""Position embeddings for a double-precision sequence model: training batches and generation."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

SEQ = 6


@jax.jit
def add_positions(table, tokens_emb, positions):
    return tokens_emb + table[positions]


def training_batch(rng, dim):
    emb = rng.normal(size=(SEQ, dim))
    positions = np.arange(SEQ)  # expect: RTL402
    return emb, positions


def generation_positions():
    return jnp.arange(SEQ, dtype=jnp.int32)  # expect: RTL402


def run(steps=3, dim=4):
    rng = np.random.default_rng(0)
    table = jnp.asarray(rng.normal(size=(16, dim)))
    for _ in range(steps):
        emb, positions = training_batch(rng, dim)
        add_positions(table, emb, positions)
    add_positions(table, jnp.zeros((SEQ, dim)), generation_positions())


if __name__ == "__main__":
    run()
