"""Loudness of synthetic test chirps of several durations."""

import jax
import jax.numpy as jnp
import numpy as np

SAMPLE_RATE = 200


@jax.jit
def loudness_db(clip):
    return 10.0 * jnp.log10(jnp.mean(clip**2) + 1e-9)


def make_chirp(seconds, f0=5.0, f1=40.0):
    t = np.arange(int(SAMPLE_RATE * seconds)) / SAMPLE_RATE  # expect: RTL105
    phase = 2 * np.pi * (f0 * t + 0.5 * (f1 - f0) / seconds * t**2)
    return np.sin(phase).astype(np.float32)


def test_suite(durations):
    clips = [make_chirp(seconds) for seconds in durations]
    return [float(loudness_db(clip)) for clip in clips]


if __name__ == "__main__":
    print(test_suite([0.5, 1.0, 1.5]))
