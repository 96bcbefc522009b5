"""Hourly rain-gauge telemetry: readings arrive per station in whatever order the
loggers report, and are assembled into plain Python containers."""

import numpy as np

STATIONS = ("alder_creek", "bear_ridge", "cedar_flat", "summit_lookout", "willow_bend")
ELEVATION_M = {"alder_creek": 310.0, "bear_ridge": 880.0, "cedar_flat": 450.0,
               "summit_lookout": 1420.0, "willow_bend": 205.0}


def poll_loggers(hour, n_samples=12):
    """Return {station: 5-minute rainfall in mm}; arrival order rotates each hour."""
    rng = np.random.default_rng(1000 + hour)
    order = STATIONS[hour % len(STATIONS):] + STATIONS[:hour % len(STATIONS)]
    readings = {}
    for name in order:
        rate = 0.4 + 0.001 * ELEVATION_M[name]
        readings[name] = rng.gamma(0.6, rate, size=n_samples).astype(np.float32)
    return readings


def thiessen_weights(readings):
    """Area weights for the stations that reported this hour (same dict order as readings)."""
    raw = {name: 1.0 + ELEVATION_M[name] / 1000.0 for name in readings}
    total = sum(raw.values())
    return {name: np.float32(w / total) for name, w in raw.items()}
