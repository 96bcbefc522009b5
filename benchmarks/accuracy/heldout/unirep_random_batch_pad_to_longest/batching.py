"""Random batching for evotuning: draw batch_size sequences at every step and pad them together."""

import numpy as np
from sequences import encode, right_pad


class RandomBatcher:
    def __init__(self, seqs, batch_size, seed=0):
        self.seqs = list(seqs)
        self.batch_size = batch_size
        self.rng = np.random.default_rng(seed)

    def sample(self):
        idx = self.rng.choice(len(self.seqs), size=self.batch_size, replace=False)
        batch = [self.seqs[i] for i in idx]
        max_len = max(len(s) for s in batch)  # expect: RTL105
        return encode(right_pad(batch, max_len))
