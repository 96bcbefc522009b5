"""Protein sequences as integer tokens: pad with the gap character, then look each residue up."""

import jax.numpy as jnp

ALPHABET = "-ACDEFGHIKLMNPQRSTVWY"  # index 0 is the padding gap


def right_pad(seqs, max_len):
    """Pad every sequence on the right with '-' up to max_len."""
    return [seq.ljust(max_len, "-") for seq in seqs]  # expect: RTL105


def encode(padded):
    return jnp.asarray([[ALPHABET.index(c) for c in seq] for seq in padded], dtype=jnp.int32)  # expect: RTL105
