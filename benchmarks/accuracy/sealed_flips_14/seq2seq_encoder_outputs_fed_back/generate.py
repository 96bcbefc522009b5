"""Greedy decoding into a fixed-length buffer (so shapes stay static)."""

import jax.numpy as jnp


def greedy_generate(model, input_ids, max_length=8, bos=1):
    batch = input_ids.shape[0]
    sequences = jnp.full((batch, max_length), bos, dtype=jnp.int32)
    encoder_outputs = None  # expect: RTL403
    for position in range(1, max_length):
        logits, encoder_outputs = model(input_ids, sequences, encoder_outputs)  # expect: RTL403
        next_tokens = jnp.argmax(logits[:, position - 1], axis=-1).astype(jnp.int32)
        sequences = sequences.at[:, position].set(next_tokens)
    return sequences
