"""A shuffling in-memory data loader that drops the incomplete last batch."""

import numpy as np


class Loader:
    def __init__(self, x, y, batch_size, seed=0):
        self.x, self.y = x, y
        self.batch_size = batch_size
        self.rng = np.random.default_rng(seed)

    def __iter__(self):
        perm = self.rng.permutation(len(self.x))
        for start in range(0, len(perm) - self.batch_size + 1, self.batch_size):
            idx = perm[start : start + self.batch_size]
            yield self.x[idx], self.y[idx]
