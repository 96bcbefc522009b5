"""A toy grid-walk environment: the observation is a noisy position encoding."""

import numpy as np


class GridWalk:
    def __init__(self, size=5, seed=0):
        self.size = size
        self.rng = np.random.default_rng(seed)
        self.pos = 0

    def reset(self):
        self.pos = 0
        return self._observe()

    def step(self, action):
        self.pos = int(np.clip(self.pos + (1 if action == 1 else -1), 0, self.size - 1))
        done = self.pos == self.size - 1
        return self._observe(), float(done), done

    def _observe(self):
        onehot = np.zeros(self.size, dtype=np.float32)
        onehot[self.pos] = 1.0
        return onehot + 0.01 * self.rng.standard_normal(self.size).astype(np.float32)
