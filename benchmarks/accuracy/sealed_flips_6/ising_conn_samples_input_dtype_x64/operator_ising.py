"""A transverse-field Ising Hamiltonian whose connected configurations are built on the host."""

import numpy as np


class TransverseIsing:
    def __init__(self, n_sites, h, j=1.0):
        self.n_sites = n_sites
        self.h = h
        self.j = j
        # flip_signs[k] flips spin k: the configurations <x'|H|x> connects to by the transverse field
        self.flip_signs = 1.0 - 2.0 * np.eye(n_sites)

    def get_conn(self, samples):
        """Connected configurations and matrix elements for a batch of +-1 samples."""
        samples = np.asarray(samples)
        connected = (samples[:, None, :] * self.flip_signs[None, :, :]).astype(samples.dtype)
        mels = np.full(connected.shape[:2], -self.h)
        return connected, mels

    def diagonal(self, samples):
        samples = np.asarray(samples)
        return -self.j * np.sum(samples * np.roll(samples, 1, axis=1), axis=1)
