"""Spectral features over fixed-length windows of recordings that have different lengths."""

import jax
import jax.numpy as jnp
import numpy as np

WINDOW = 16


@jax.jit
def window_features(window):
    spectrum = jnp.abs(jnp.fft.rfft(window - window.mean()))
    return spectrum / (spectrum.sum() + 1e-6)


def windows(signal, width=WINDOW):
    for start in range(0, len(signal) - width + 1, width):
        yield signal[start : start + width]


def featurise(recordings):
    return [np.stack([window_features(w) for w in windows(r)]) for r in recordings]


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    recordings = [rng.normal(size=n).astype(np.float32) for n in (50, 37, 64)]
    featurise(recordings)
