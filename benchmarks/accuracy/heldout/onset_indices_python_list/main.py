"""Describe the strokes in drum clips: spectral centroid and brightness at each onset.

Onsets are found on the host from the energy envelope; the spectrogram frames
at those onsets are summarised by a jitted function.
"""

import jax
import jax.numpy as jnp
import numpy as np

from features import FRAME, detect_onsets, energy_envelope, magnitude_spectrogram

SAMPLE_RATE = 8000
CLIP_SECONDS = 0.5


@jax.jit
def onset_descriptors(spec, onsets):
    idx = jnp.asarray(onsets)
    hits = spec[idx]
    freqs = jnp.linspace(0.0, SAMPLE_RATE / 2, spec.shape[-1])
    power = hits**2
    centroid = (power @ freqs) / (jnp.sum(power, axis=-1) + 1e-9)
    brightness = jnp.sum(power[:, spec.shape[-1] // 4 :], axis=-1) / (jnp.sum(power, axis=-1) + 1e-9)
    return jnp.mean(centroid), jnp.mean(brightness)


def synth_clip(rng, n_strokes):
    n = int(SAMPLE_RATE * CLIP_SECONDS)
    signal = 0.002 * rng.standard_normal(n)
    starts = np.linspace(FRAME, n - 600 - FRAME, n_strokes).astype(int)
    t = np.arange(600) / SAMPLE_RATE
    for s in starts:
        pitch = rng.uniform(150.0, 900.0)
        signal[s : s + 600] += np.exp(-t * 40.0) * np.sin(2 * np.pi * pitch * t)
    return signal


def analyse(clip):
    spec = jnp.asarray(magnitude_spectrogram(clip))
    onsets = detect_onsets(energy_envelope(clip))
    centroid, brightness = onset_descriptors(spec, onsets)
    return len(onsets), float(centroid), float(brightness)


def main():
    rng = np.random.default_rng(5)
    for name, strokes in [("kick", 3), ("roll", 5), ("tom", 3), ("fill", 4)]:
        n, centroid, brightness = analyse(synth_clip(rng, strokes))
        print(f"{name:5s} {n} onsets  centroid {centroid:7.1f} Hz  brightness {brightness:.3f}")


if __name__ == "__main__":
    main()
