"""Bearing condition monitoring: energy in narrow bands around the shaft harmonics.

The shaft speed comes from a tachometer and drifts a little from frame to frame,
so the zoom band around each harmonic moves with it.
"""

import numpy as np
import jax.numpy as jnp

from czt import hann, zoom_czt

FS = 2048.0
FRAME = 512


class BearingMonitor:
    def __init__(self, fs, n_bins=64, half_width=4.0, orders=(1, 2)):
        self.fs = fs
        self.n_bins = n_bins
        self.half_width = half_width
        self.orders = orders
        self.window = hann(FRAME)

    def harmonic_band(self, shaft_hz, order):
        centre = order * shaft_hz
        return centre - self.half_width, centre + self.half_width

    def band_energy(self, frame, band):
        lo, hi = band
        spec = zoom_czt(frame * self.window, m=self.n_bins, f0=lo, f1=hi, fs=self.fs)  # expect: RTL202
        return jnp.sum(jnp.abs(spec) ** 2) / self.n_bins

    def inspect(self, frame, shaft_hz):
        return {
            order: float(self.band_energy(frame, self.harmonic_band(shaft_hz, order)))
            for order in self.orders
        }


def synth_frame(rng, shaft_hz):
    t = np.arange(FRAME) / FS
    x = np.sin(2 * np.pi * shaft_hz * t) + 0.3 * np.sin(2 * np.pi * 2 * shaft_hz * t)
    return jnp.asarray(x + 0.05 * rng.standard_normal(FRAME), dtype=jnp.float32)


def main():
    rng = np.random.default_rng(7)
    tacho_hz = [24.8, 25.1, 25.35, 24.95]
    monitor = BearingMonitor(FS)
    for i, shaft_hz in enumerate(tacho_hz):
        frame = synth_frame(rng, shaft_hz)
        energies = monitor.inspect(frame, shaft_hz)
        print(f"frame {i}: shaft {shaft_hz:.2f} Hz, " + ", ".join(
            f"{k}x={v:.3f}" for k, v in energies.items()))


if __name__ == "__main__":
    main()
