"""Station metadata and synthetic waveforms for a small regional network."""

from dataclasses import dataclass

import numpy as np

SAMPLES = 256
DT = 0.01


@dataclass(frozen=True)
class Station:
    code: str
    x_km: float
    y_km: float
    noise_level: float


NETWORK = (
    Station("ALB", 0.0, 0.0, 0.05),
    Station("BRK", 12.0, 3.0, 0.08),
    Station("CRV", -6.0, 9.0, 0.04),
    Station("DNV", 4.0, -11.0, 0.10),
    Station("ELM", 15.0, 14.0, 0.06),
    Station("FRT", -13.0, -4.0, 0.07),
)


def synthetic_trace(station, event, rng):
    """A Ricker pulse arriving at the station's travel time, plus noise."""
    dist = np.hypot(station.x_km - event["x_km"], station.y_km - event["y_km"])
    t_arr = dist / event["velocity"]
    t = np.arange(SAMPLES) * DT
    arg = (np.pi * 8.0 * (t - t_arr - 0.3)) ** 2
    pulse = event["magnitude"] * (1.0 - 2.0 * arg) * np.exp(-arg)
    return (pulse + station.noise_level * rng.standard_normal(SAMPLES)).astype(np.float32)


def snr(trace):
    peak = np.max(np.abs(trace))
    floor = np.std(trace[:20]) + 1e-6
    return peak / floor
