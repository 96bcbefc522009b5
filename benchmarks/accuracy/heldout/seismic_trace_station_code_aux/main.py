"""Network-wide event detection: STA/LTA trigger on one window from each broadband station."""

import jax
import jax.numpy as jnp
import numpy as np

from traces import Trace, demean

STATIONS = ["ANMO", "COLA", "HRV", "PAB", "KONO"]
RATE_HZ = 40.0
WINDOW_S = 30.0


@jax.jit
def sta_lta_peak(trace):
    rate = trace.sampling_rate
    n_sta, n_lta = int(0.5 * rate), int(5.0 * rate)
    energy = trace.samples ** 2
    csum = jnp.concatenate([jnp.zeros(1), jnp.cumsum(energy)])
    sta = (csum[n_sta:] - csum[:-n_sta]) / n_sta
    lta = (csum[n_lta:] - csum[:-n_lta]) / n_lta
    ratio = sta[n_lta - n_sta:] / (lta + 1e-9)
    return jnp.max(ratio), jnp.argmax(ratio) + n_lta


def fetch_window(station, rng, onset_s):
    """Stand-in for a waveform-server request: noise plus a decaying P arrival."""
    n = int(WINDOW_S * RATE_HZ)
    t = np.arange(n, dtype=np.float32) / RATE_HZ
    noise = rng.standard_normal(n).astype(np.float32)
    arrival = np.where(t > onset_s, 8.0 * np.exp(-(t - onset_s) / 2.0) * np.sin(12.0 * t), 0.0)
    samples = jnp.asarray(noise + arrival.astype(np.float32))
    return Trace(samples, station=station, sampling_rate=RATE_HZ)  # expect: RTL201


def scan_network(rng):
    picks = {}
    for k, station in enumerate(STATIONS):
        trace = demean(fetch_window(station, rng, onset_s=12.0 + 1.5 * k))
        peak, idx = sta_lta_peak(trace)
        if float(peak) > 3.0:
            picks[trace.station] = int(idx) / trace.sampling_rate
    return picks


if __name__ == "__main__":
    picks = scan_network(np.random.default_rng(3))
    for station, t in picks.items():
        print(f"{station}: P pick at {t:.2f} s")
