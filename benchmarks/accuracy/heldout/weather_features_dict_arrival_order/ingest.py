"""Collect station reports into a dict of hourly feature series, in arrival order."""

import numpy as np

CLIMATOLOGY = {
    "temperature": (12.0, 6.0),
    "pressure": (1013.0, 8.0),
    "humidity": (70.0, 15.0),
    "wind_speed": (4.0, 2.5),
    "precip": (0.2, 0.5),
}
VARIABLES = tuple(CLIMATOLOGY)
HOURS = 12


def fake_reports(cycle, rng):
    """Reports arrive in a different order every cycle; precipitation gauges are sometimes late."""
    order = list(VARIABLES)
    rng.shuffle(order)
    reports = []
    for name in order:
        if name == "precip" and cycle % 2 == 1:
            continue  # gauge network missed the cut-off this cycle
        mean, std = CLIMATOLOGY[name]
        reports.append((name, mean + std * rng.normal(size=HOURS)))
    return reports


def assemble_features(reports):
    features = {}
    for name, series in reports:
        features[name] = np.asarray(series, dtype=np.float32)
    if "precip" not in features:
        features["precip"] = np.zeros(HOURS, dtype=np.float32)
    return features
