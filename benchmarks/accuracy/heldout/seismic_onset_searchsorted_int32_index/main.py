"""Cut P-wave windows from a small network and measure their amplitudes.

Events with a catalogue origin get their window from the theoretical arrival;
the others from an STA/LTA trigger. Double precision because the time axes are
epoch seconds.
"""

from dataclasses import dataclass

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from picking import onset_from_catalogue, onset_from_trigger  # noqa: E402

WINDOW = 64
FS = 50.0


@dataclass
class Record:
    station: str
    times: jnp.ndarray
    trace: jnp.ndarray
    catalogue_arrival: float | None


@jax.jit
def window_amplitude(trace, start):
    seg = jax.lax.dynamic_slice(trace, (start,), (WINDOW,))
    seg = seg - seg.mean()
    taper = jnp.hanning(WINDOW)
    return jnp.sqrt(jnp.mean((seg * taper) ** 2)), jnp.max(jnp.abs(seg))


def synthetic_record(station, t0, arrival, has_catalogue, seed):
    rng = np.random.default_rng(seed)
    n = 400
    times = t0 + np.arange(n) / FS
    noise = 0.05 * rng.standard_normal(n)
    k = int((arrival - t0) * FS)
    signal = np.zeros(n)
    signal[k:k + 80] = np.sin(np.linspace(0, 12 * np.pi, 80)) * np.exp(-np.linspace(0, 4, 80))
    cat = arrival if has_catalogue else None
    return Record(station, jnp.asarray(times), jnp.asarray(noise + signal), cat)


def pick_onset(rec):
    if rec.catalogue_arrival is not None:
        return onset_from_catalogue(rec.times, rec.catalogue_arrival)
    return onset_from_trigger(rec.trace)


def process(records):
    rows = []
    for rec in records:
        start = pick_onset(rec)
        rms, peak = window_amplitude(rec.trace, start)
        rows.append((rec.station, int(start), float(rms), float(peak)))
    return rows


if __name__ == "__main__":
    t0 = 1.7e9
    network = [
        synthetic_record("ANMO", t0, t0 + 2.4, True, 1),
        synthetic_record("COLA", t0, t0 + 3.1, True, 2),
        synthetic_record("KONO", t0, t0 + 2.9, False, 3),
        synthetic_record("PAB", t0, t0 + 3.6, False, 4),
    ]
    for station, start, rms, peak in process(network):
        print(f"{station:5s} start={start:4d} rms={rms:.4f} peak={peak:.4f}")
