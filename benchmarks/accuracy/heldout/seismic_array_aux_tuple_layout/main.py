"""Slowness scan (delay-and-sum beamforming) over consecutive windows of array data."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from array_geometry import ArrayWindow, load_layout


@dataclass(frozen=True)
class ScanConfig:
    sample_rate: float = 40.0
    window_s: float = 3.2
    n_windows: int = 5
    slowness_s_per_km: tuple = (-0.3, -0.15, 0.0, 0.15, 0.3)


@jax.jit
def beam_power(window, slowness):
    offsets = jnp.asarray(window.offsets_km)
    freqs = jnp.fft.rfftfreq(window.n_samples, d=1.0 / window.sample_rate)
    spec = jnp.fft.rfft(window.traces, axis=1)
    delays = slowness[:, None] * offsets[None, :]                  # (n_slow, n_sta)
    steer = jnp.exp(2j * jnp.pi * freqs[None, None, :] * delays[:, :, None])
    beams = jnp.sum(spec[None] * steer, axis=1) / len(window.offsets_km)
    return jnp.sum(jnp.abs(beams) ** 2, axis=-1)


def synthetic_record(offsets_km, cfg, seconds, true_slowness=0.15, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(int(seconds * cfg.sample_rate)) / cfg.sample_rate
    rows = []
    for x in offsets_km:
        arrival = 2.0 + true_slowness * x
        rows.append(np.sin(2 * np.pi * 2.5 * (t - arrival)) * np.exp(-((t - arrival) % 3.2)))
    return (np.array(rows) + 0.1 * rng.standard_normal((len(offsets_km), t.size))).astype(np.float32)


def windows(record, offsets_km, cfg):
    n = int(cfg.window_s * cfg.sample_rate)
    for w in range(cfg.n_windows):
        chunk = record[:, w * n:(w + 1) * n]
        yield ArrayWindow(jnp.asarray(chunk), offsets_km, cfg.sample_rate)


def main():
    cfg = ScanConfig()
    names, offsets_km = load_layout()
    record = synthetic_record(offsets_km, cfg, seconds=cfg.window_s * cfg.n_windows)
    slowness = jnp.asarray(cfg.slowness_s_per_km)
    for k, win in enumerate(windows(record, offsets_km, cfg)):
        power = beam_power(win, slowness)
        best = float(slowness[jnp.argmax(power)])
        print(f"window {k}: {len(names)} stations, best slowness {best:+.2f} s/km")


if __name__ == "__main__":
    main()
