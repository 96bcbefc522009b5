"""Loudness of test tones that all have the same duration but different frequencies."""

import jax
import jax.numpy as jnp
import numpy as np

SAMPLE_RATE = 200
SECONDS = 1.0


@jax.jit
def loudness_db(clip):
    return 10.0 * jnp.log10(jnp.mean(clip**2) + 1e-9)


def make_tone(freq, amplitude):
    t = np.arange(int(SAMPLE_RATE * SECONDS)) / SAMPLE_RATE
    return (amplitude * np.sin(2 * np.pi * freq * t)).astype(np.float32)


def test_suite(freqs):
    clips = [make_tone(f, 1.0 / (k + 1)) for k, f in enumerate(freqs)]
    clips += [jnp.ones(int(SAMPLE_RATE * SECONDS)) * k for k in range(3)]
    return [float(loudness_db(clip)) for clip in clips]


if __name__ == "__main__":
    print(test_suite([5.0, 10.0, 20.0]))
