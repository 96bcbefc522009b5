"""Slide an STA/LTA picker over a continuous record, one fixed-length window at a time."""

import jax
import jax.numpy as jnp
import numpy as np

from seismogram import Seismogram

WINDOW = 256
STEP = 192
STA, LTA = 8, 64


@jax.jit
def demean_taper(x):
    x = x - jnp.mean(x)
    n = x.shape[-1]
    ramp = jnp.minimum(1.0, jnp.minimum(jnp.arange(n), n - 1 - jnp.arange(n)) / 16.0)
    return x * ramp


@jax.jit
def sta_lta_pick(seis):
    energy = seis.samples**2
    csum = jnp.concatenate([jnp.zeros(1), jnp.cumsum(energy)])
    idx = jnp.arange(LTA, seis.npts)
    sta = (csum[idx] - csum[idx - STA]) / STA
    lta = (csum[idx] - csum[idx - LTA]) / LTA
    ratio = sta / (lta + 1e-6)
    best = jnp.argmax(ratio)
    pick_time = seis.start_time + seis.dt * (best + LTA)
    return pick_time, ratio[best]


def cut_window(record, offset):
    """Return the window of `record` that starts `offset` samples in."""
    chunk = record.samples[offset : offset + WINDOW]
    return Seismogram(
        demean_taper(chunk),
        record.station,
        record.start_time + offset * record.dt,  # expect: RTL202
        record.dt,
    )


def synthetic_record(npts=1000, dt=0.01, seed=3):
    rng = np.random.default_rng(seed)
    data = rng.normal(0.0, 0.1, npts).astype(np.float32)
    for onset in (300, 700):
        data[onset : onset + 40] += np.sin(np.arange(40) * 0.9).astype(np.float32) * 2.0
    return Seismogram(jnp.asarray(data), "ANMO", 43200.0, dt)


def scan_record(record, threshold=3.0):
    picks = []
    for offset in range(0, record.npts - WINDOW + 1, STEP):
        window = cut_window(record, offset)
        t, snr = sta_lta_pick(window)
        if float(snr) > threshold:
            picks.append((window.station, round(float(t), 2), round(float(snr), 1)))
    return picks


if __name__ == "__main__":
    for pick in scan_record(synthetic_record()):
        print(pick)
