"""Alpha-band (8-12 Hz) power per EEG epoch, for a drowsiness monitor.

The band limits used to be passed to the jitted reducer as a Python `slice`,
which cannot be a static argument; they now travel as a small NamedTuple of
bin indices, recomputed from the frequency grid for every epoch.
"""

from functools import partial
from typing import NamedTuple

import numpy as np
import jax
import jax.numpy as jnp

FS_HZ = 128.0
EPOCH_SAMPLES = 256


class BinRange(NamedTuple):
    start: int
    stop: int


def band_bins(freqs, low_hz, high_hz):
    start = int(np.searchsorted(freqs, low_hz, side="left"))
    stop = int(np.searchsorted(freqs, high_hz, side="right"))
    return BinRange(start, stop)


@partial(jax.jit, static_argnums=1)
def band_power(epoch, bins):
    window = jnp.hanning(epoch.shape[-1])
    spectrum = jnp.abs(jnp.fft.rfft(epoch * window, axis=-1)) ** 2
    return spectrum[..., bins.start:bins.stop].mean(axis=-1)


class DrowsinessMonitor:
    def __init__(self, n_channels, alpha=(8.0, 12.0), threshold=1500.0):
        self.freqs = np.fft.rfftfreq(EPOCH_SAMPLES, d=1.0 / FS_HZ)
        self.alpha = alpha
        self.threshold = threshold
        self.baseline = np.ones(n_channels)

    def score(self, epoch):
        bins = band_bins(self.freqs, *self.alpha)
        power = np.asarray(band_power(jnp.asarray(epoch), bins))
        return float((power / self.baseline).mean())


def synthetic_epochs(n_epochs, n_channels, seed=3):
    rng = np.random.default_rng(seed)
    t = np.arange(EPOCH_SAMPLES) / FS_HZ
    for k in range(n_epochs):
        alpha_amp = 0.5 + 0.4 * k
        tone = alpha_amp * np.sin(2 * np.pi * 10.0 * t)
        noise = rng.normal(0.0, 1.0, (n_channels, EPOCH_SAMPLES))
        yield (tone[None, :] + noise).astype(np.float32)


def main():
    monitor = DrowsinessMonitor(n_channels=4)
    for i, epoch in enumerate(synthetic_epochs(5, 4)):
        s = monitor.score(epoch)
        flag = "DROWSY" if s > monitor.threshold else "awake"
        print(f"epoch {i}: alpha score {s:8.2f} {flag}")


if __name__ == "__main__":
    main()
