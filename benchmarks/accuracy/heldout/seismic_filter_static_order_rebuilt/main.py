"""Event detection on a small seismic network: per-station bandpass, then STA/LTA.

Each station has its own corner frequencies (instrument response, site noise), so
the filter is rebuilt for every station; its length and phase mode come from the
network-wide config.
"""

import numpy as np
import jax
import jax.numpy as jnp

from filters import apply_bandpass, design_bandpass

FS = 100.0
CONFIG = {"numtaps": 63, "zero_phase": True}
STATIONS = {
    "KHZ": (1.0, 8.0, 1.0),
    "WEL": (0.8, 6.5, 1.2),
    "THZ": (1.5, 10.0, 0.9),
    "DSZ": (1.2, 7.5, 1.1),
}


@jax.jit
def sta_lta(x, sta=10, lta=80):
    energy = x ** 2
    k_sta = jnp.ones(sta) / sta
    k_lta = jnp.ones(lta) / lta
    s = jnp.convolve(energy, k_sta, mode="same")
    l = jnp.convolve(energy, k_lta, mode="same")
    return s / (l + 1e-6)


def synth_trace(rng, onset):
    t = np.arange(600) / FS
    x = 0.2 * rng.standard_normal(t.size)
    burst = (t >= onset) & (t < onset + 1.0)
    x[burst] += np.sin(2 * np.pi * 4.0 * t[burst]) * np.exp(-(t[burst] - onset))
    return jnp.asarray(x, jnp.float32)


def main():
    rng = np.random.default_rng(3)
    for i, (name, (f_lo, f_hi, gain)) in enumerate(STATIONS.items()):
        filt = design_bandpass(f_lo, f_hi, FS, gain=gain, **CONFIG)
        trace = synth_trace(rng, onset=2.0 + 0.3 * i)
        ratio = sta_lta(apply_bandpass(filt, trace))
        pick = int(jnp.argmax(ratio))
        print(f"{name}: corners {f_lo}-{f_hi} Hz, pick at {pick / FS:.2f} s, peak {float(ratio.max()):.1f}")


if __name__ == "__main__":
    main()
