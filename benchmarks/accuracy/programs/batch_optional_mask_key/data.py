"""Collate token sequences into fixed-length batches."""

import numpy as np

MAX_LEN = 8


def collate(sequences):
    tokens = np.zeros((len(sequences), MAX_LEN), np.int32)
    lengths = np.array([len(s) for s in sequences])
    for row, seq in enumerate(sequences):
        tokens[row, : len(seq)] = seq
    batch = {"tokens": tokens}
    if (lengths < MAX_LEN).any():
        # Only padded batches need a mask.
        batch["mask"] = (np.arange(MAX_LEN)[None, :] < lengths[:, None]).astype(np.float32)  # expect: RTL403
    return batch


def batches(corpus, batch_size):
    for start in range(0, len(corpus) - batch_size + 1, batch_size):
        yield collate(corpus[start : start + batch_size])
