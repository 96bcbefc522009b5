"""Gauge records of unequal length, padded to one fixed record length with a validity mask."""

import numpy as np

RECORD_LEN = 64  # hourly samples kept per station


def synthetic_stations(seed=11):
    rng = np.random.default_rng(seed)
    lengths = {"harbour_north": 41, "estuary_gate": 57, "pier_b": 64, "river_mouth": 33, "lock_7": 80}
    stations = {}
    for name, n in lengths.items():
        level = np.cumsum(rng.normal(0.0, 0.05, n)) + rng.uniform(1.0, 3.0)
        stations[name] = level + rng.normal(0.0, 0.1, n)
    return stations


def pad_record(series, length=RECORD_LEN):
    series = np.asarray(series, dtype=np.float32)[-length:]  # keep the most recent samples
    n_valid = len(series)
    y = np.pad(series, (0, length - n_valid))
    mask = np.arange(length) < n_valid
    return y, mask
