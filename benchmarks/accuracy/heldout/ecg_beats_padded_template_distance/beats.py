"""Synthetic ECG records and beat segmentation into fixed-size, masked buffers."""
import numpy as np

FS = 100          # Hz
MAX_BEAT = 128    # samples; longest RR interval we accept is 1.28 s
MAX_BEATS = 12    # beats kept per record


def synth_record(rng, heart_rate, seconds=8.0):
    """A crude ECG: Gaussian P, QRS and T waves around jittered R peaks."""
    n = int(seconds * FS)
    t = np.arange(n) / FS
    rr = 60.0 / heart_rate
    peaks = np.cumsum(rr + 0.04 * rng.standard_normal(int(seconds / rr) + 2))
    peaks = peaks[peaks < seconds - 0.3]
    sig = 0.03 * rng.standard_normal(n)
    for p in peaks:
        sig += 0.15 * np.exp(-((t - p + 0.18) / 0.025) ** 2)   # P
        sig += 1.00 * np.exp(-((t - p) / 0.010) ** 2)          # R
        sig += 0.30 * np.exp(-((t - p - 0.25) / 0.040) ** 2)   # T
    return sig.astype(np.float32), (peaks * FS).astype(int)


def pad_beat(beat, size=MAX_BEAT):
    """Copy a variable-length beat into a zero buffer of fixed size, with its mask."""
    n = min(len(beat), size)
    out = np.zeros(size, dtype=np.float32)
    out[:n] = beat[:n]
    mask = np.arange(size) < n
    return out, mask


def segment(signal, r_peaks):
    """Beats from 0.25 s before one R peak to 0.25 s before the next.

    Returns (MAX_BEATS, MAX_BEAT) buffers, their sample masks and a per-beat
    validity flag, whatever the number of beats and their lengths.
    """
    beats = np.zeros((MAX_BEATS, MAX_BEAT), dtype=np.float32)
    masks = np.zeros((MAX_BEATS, MAX_BEAT), dtype=bool)
    valid = np.zeros(MAX_BEATS, dtype=bool)
    starts = np.maximum(r_peaks - FS // 4, 0)
    for i, (a, b) in enumerate(zip(starts[:-1], starts[1:])):
        if i == MAX_BEATS:
            break
        beats[i], masks[i] = pad_beat(signal[a:b])
        valid[i] = True
    return beats, masks, valid
