"""A whitespace tokenizer with a fixed vocabulary."""

import numpy as np

VOCAB = {w: i + 1 for i, w in enumerate("the a cat dog sat on mat ran far away quickly".split())}


def encode(text):
    return np.array([VOCAB.get(word, 0) for word in text.lower().split()], np.int32)  # expect: RTL104
