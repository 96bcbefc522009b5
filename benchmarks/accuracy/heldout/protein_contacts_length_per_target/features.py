"""Sequence featurisation for the contact predictor."""
import numpy as np

AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"
_INDEX = {aa: i for i, aa in enumerate(AMINO_ACIDS)}


def one_hot(sequence):
    """(L, 20) one-hot encoding of a protein sequence; unknown residues stay zero."""
    feats = np.zeros((len(sequence), len(AMINO_ACIDS)), dtype=np.float32)  # expect: RTL105
    for pos, aa in enumerate(sequence):
        idx = _INDEX.get(aa)
        if idx is not None:
            feats[pos, idx] = 1.0
    return feats


def relative_positions(length, max_offset=8):
    """Clipped |i - j| sequence separation, scaled to [0, 1]."""
    pos = np.arange(length)  # expect: RTL105
    sep = np.abs(pos[:, None] - pos[None, :])
    return (np.minimum(sep, max_offset) / max_offset).astype(np.float32)


def make_features(record):
    seq = record["sequence"]
    return {"msa_feat": one_hot(seq), "rel_pos": relative_positions(len(seq))}
