"""Subtomogram tilt series kept as one flat stack of 2D projections plus a per-particle index.

Each particle keeps only the tilts that survived the dose / ice-thickness check, so particles
carry different numbers of tilt images.
"""
from dataclasses import dataclass

import numpy as np

TILT_ANGLES = np.arange(-30, 31, 15)  # degrees, five images per particle before rejection


@dataclass
class TiltSeriesStack:
    images: np.ndarray   # (total_kept_tilts, n_pix) flattened projections
    ctf: np.ndarray      # (total_kept_tilts, n_pix) CTF at each projection's defocus
    offsets: np.ndarray  # first row of each particle in the stack
    counts: np.ndarray   # kept tilts per particle

    def __len__(self):
        return len(self.counts)

    def particle_images(self, i):
        lo = self.offsets[i]
        return self.images[lo:lo + self.counts[i]]  # expect: RTL101

    def particle_ctf(self, i):
        lo = self.offsets[i]
        return self.ctf[lo:lo + self.counts[i]]  # expect: RTL101


def simulate_stack(n_particles=10, n_pix=16, seed=3):
    rng = np.random.default_rng(seed)
    freqs = np.linspace(0.0, 0.5, n_pix)
    images, ctfs, counts = [], [], []
    for _ in range(n_particles):
        ice = rng.uniform(0.8, 1.2)
        thickness = ice / np.cos(np.deg2rad(TILT_ANGLES))
        kept = TILT_ANGLES[thickness < 1.3]  # thick ice at high tilt is rejected
        defocus = rng.uniform(1.5, 3.0)
        for angle in kept:
            ctf = np.sin(np.pi * defocus * (1 + 0.01 * abs(angle)) * freqs ** 2 * 40)
            signal = rng.normal(size=n_pix)
            ctfs.append(ctf)
            images.append(ctf * signal + 0.3 * rng.normal(size=n_pix))
        counts.append(len(kept))
    counts = np.array(counts)
    offsets = np.concatenate([[0], np.cumsum(counts)[:-1]])
    return TiltSeriesStack(
        np.asarray(images, np.float32), np.asarray(ctfs, np.float32), offsets, counts
    )


class ParticleBatches:
    """Groups particles into lists of tilt series, one entry per particle."""

    def __init__(self, stack, batch_size):
        self.stack = stack
        self.batch_size = batch_size

    def __iter__(self):
        for start in range(0, len(self.stack), self.batch_size):
            idx = range(start, min(start + self.batch_size, len(self.stack)))
            yield (
                [self.stack.particle_images(i) for i in idx],
                [self.stack.particle_ctf(i) for i in idx],
            )
