"""Sampled drive envelopes for a single transmon, in units of the AWG sample time dt."""

import numpy as np


def gaussian(duration, amp, sigma):
    t = np.arange(duration) - (duration - 1) / 2.0
    env = amp * np.exp(-0.5 * (t / sigma) ** 2)
    return env.astype(np.complex64)


def drag(duration, amp, sigma, beta):
    t = np.arange(duration) - (duration - 1) / 2.0
    g = amp * np.exp(-0.5 * (t / sigma) ** 2)
    dg = -t / sigma**2 * g
    return (g + 1j * beta * dg).astype(np.complex64)


def square(duration, amp):
    return np.full(duration, amp, dtype=np.complex64)


class Schedule:
    """One pulse on the drive channel, played after an optional delay."""

    def __init__(self, name, samples, delay=0):
        self.name = name
        self.samples = np.concatenate([np.zeros(delay, np.complex64), samples])

    @property
    def duration(self):
        return len(self.samples)
