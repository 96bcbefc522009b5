"""Onset picking and event-window features for short-period seismometer traces."""

import jax
import jax.numpy as jnp
import numpy as np


def sta_lta_onset(trace, sta=4, lta=16, threshold=2.5):
    """Classic STA/LTA trigger on the host; returns the first sample over threshold."""
    energy = trace.astype(np.float64) ** 2
    csum = np.cumsum(energy)
    sta_avg = (csum[sta:] - csum[:-sta]) / sta
    lta_avg = (csum[lta:] - csum[:-lta]) / lta
    n = min(len(sta_avg), len(lta_avg))
    ratio = sta_avg[-n:] / (lta_avg[-n:] + 1e-9)
    hits = np.nonzero(ratio > threshold)[0]
    return int(hits[0]) + (len(trace) - n) if len(hits) else len(trace) // 4


@jax.jit
def event_features(window, dt):
    """Peak amplitude, signal energy and dominant frequency of the event window."""
    peak = jnp.max(jnp.abs(window))
    energy = jnp.sum(window ** 2) * dt
    spec = jnp.abs(jnp.fft.rfft(window * jnp.hanning(window.shape[0])))
    freqs = jnp.fft.rfftfreq(window.shape[0], d=dt)
    dominant = freqs[jnp.argmax(spec)]
    return jnp.stack([peak, energy, dominant])
