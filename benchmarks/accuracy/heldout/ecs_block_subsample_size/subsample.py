"""Block subsampling for a subsampled Metropolis chain: each block keeps a Poisson number of data points."""

import numpy as np


class BlockSubsampler:
    def __init__(self, n_data, n_blocks=4, mean_block=6, seed=0):
        self.n_data = n_data
        self.n_blocks = n_blocks
        self.mean_block = mean_block
        self.rng = np.random.default_rng(seed)
        self.block_lengths = self.rng.poisson(mean_block, size=n_blocks) + 1

    def refresh_block(self):
        """Resample the length of one block, as the block-Gibbs update of the subsample does."""
        b = self.rng.integers(self.n_blocks)
        self.block_lengths[b] = self.rng.poisson(self.mean_block) + 1

    def draw(self):
        self.refresh_block()
        total = int(self.block_lengths.sum())
        return self.rng.integers(0, self.n_data, size=total)  # expect: RTL105
