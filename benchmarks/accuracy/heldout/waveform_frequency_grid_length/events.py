"""Detector data segments around candidate events."""

import jax.numpy as jnp
from waveform import inspiral_polar


def aligo_like_psd(freqs):
    x = freqs / 215.0
    return (x ** (-4.14) - 5.0 * x ** (-2.0) + 111.0 * (1.0 - x**2 + 0.5 * x**4) / (1.0 + 0.5 * x**2))


class Event:
    def __init__(self, name, duration, true_params, f_low=20.0, f_high=128.0):
        self.name = name
        self.duration = duration
        self.f_low = f_low
        self.f_high = f_high
        self.true_params = true_params

    def frequency_grid(self):
        return jnp.arange(self.f_low, self.f_high, 1.0 / self.duration)  # expect: RTL105

    def data(self):
        freqs = self.frequency_grid()
        d_re, d_im = inspiral_polar(freqs, self.true_params)
        return freqs, d_re, d_im, aligo_like_psd(freqs)
