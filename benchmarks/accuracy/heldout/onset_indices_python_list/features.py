"""Front-end feature extraction for percussive clips (NumPy, runs on the host)."""

import numpy as np

FRAME = 256
HOP = 128


def frames(signal):
    n = 1 + (len(signal) - FRAME) // HOP
    idx = np.arange(FRAME)[None, :] + HOP * np.arange(n)[:, None]
    return signal[idx] * np.hanning(FRAME)[None, :]


def magnitude_spectrogram(signal):
    return np.abs(np.fft.rfft(frames(signal), axis=-1)).astype(np.float32)


def energy_envelope(signal):
    return np.sqrt(np.mean(frames(signal) ** 2, axis=-1))


def detect_onsets(envelope, ratio=2.5):
    """Frame indices where the energy jumps above ``ratio`` times the previous frame."""
    rising = envelope[1:] > ratio * (envelope[:-1] + 1e-4)
    return (np.flatnonzero(rising) + 1).tolist()  # expect: RTL104
