"""A shuffling loader over a regression data set that drops the short last batch."""

import numpy as np


class Loader:
    def __init__(self, x, y, batch_size=16, seed=0):
        self.x, self.y = x, y
        self.batch_size = batch_size
        self.rng = np.random.default_rng(seed)

    def __iter__(self):
        order = self.rng.permutation(len(self.x))
        for start in range(0, len(order) - self.batch_size + 1, self.batch_size):
            idx = order[start : start + self.batch_size]
            yield self.x[idx], self.y[idx]


def regression_data(n=70, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-2, 2, size=(n, 2)).astype(np.float32)
    y = (np.sin(x[:, :1]) + 0.5 * x[:, 1:]).astype(np.float32)
    return x, y
