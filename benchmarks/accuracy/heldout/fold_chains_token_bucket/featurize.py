"""Token features for a protein chain, padded up to a compilation bucket."""

import numpy as np

BUCKETS = (64, 128, 256, 512)
ALPHABET = "ACDEFGHIKLMNPQRSTVWY"


def bucket_for(n_tokens):
    for size in BUCKETS:
        if n_tokens <= size:
            return size
    return BUCKETS[-1]


def featurize(sequence):
    """One-hot residues and a token mask, both padded to the chain's bucket."""
    n = len(sequence)
    size = bucket_for(n)
    one_hot = np.zeros((size, len(ALPHABET)), np.float32)
    one_hot[np.arange(n), [ALPHABET.index(a) for a in sequence]] = 1.0
    mask = np.concatenate([np.ones(n, np.float32), np.zeros(size - n, np.float32)])
    return one_hot, mask
