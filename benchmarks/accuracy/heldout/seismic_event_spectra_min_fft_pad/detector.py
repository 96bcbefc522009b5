"""STA/LTA event detection on a continuous single-station record (plain NumPy)."""

import numpy as np


def synthetic_record(fs, seconds, onsets, seed=5):
    """Background microseism noise with a few local events of different durations."""
    rng = np.random.default_rng(seed)
    n = int(fs * seconds)
    t = np.arange(n) / fs
    trace = 0.05 * rng.normal(size=n) + 0.02 * np.sin(2 * np.pi * 0.2 * t)
    for onset, dur, f0 in onsets:
        i0, m = int(onset * fs), int(dur * fs)
        tt = np.arange(m) / fs
        trace[i0:i0 + m] += np.exp(-3.0 * tt / dur) * np.sin(2 * np.pi * f0 * tt) * (1 + rng.normal(0, 0.1, m))
    return trace.astype(np.float32)


def sta_lta(trace, fs, sta=0.2, lta=4.0):
    energy = trace.astype(np.float64) ** 2
    ns, nl = int(sta * fs), int(lta * fs)
    csum = np.concatenate([[0.0], np.cumsum(energy)])
    sta_v = (csum[ns:] - csum[:-ns]) / ns
    lta_v = (csum[nl:] - csum[:-nl]) / nl
    ratio = np.zeros_like(energy)
    ratio[nl:] = sta_v[nl - ns + 1:len(lta_v) + nl - ns] / np.maximum(lta_v[:-1], 1e-12)
    return ratio


def detect(trace, fs, on=4.0, off=1.5, max_seconds=2.4):
    """(start, stop) sample windows of triggered events, clipped to max_seconds."""
    ratio = sta_lta(trace, fs)
    events, start = [], None
    for i, r in enumerate(ratio):
        if start is None and r > on:
            start = i
        elif start is not None and r < off:
            events.append((start, min(i, start + int(max_seconds * fs))))
            start = None
    return events
