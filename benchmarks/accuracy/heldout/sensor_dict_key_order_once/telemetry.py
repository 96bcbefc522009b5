"""Simulated telemetry feed: each station reports its channels in whatever order packets arrive."""

import numpy as np

CHANNELS = ("pressure", "temperature", "humidity", "wind_u", "wind_v")


class TelemetryFeed:
    def __init__(self, n_stations, seed=0):
        self.n_stations = n_stations
        self.rng = np.random.default_rng(seed)

    def packets(self):
        """One packet per channel, shuffled the way a UDP feed delivers them."""
        order = self.rng.permutation(len(CHANNELS))
        for i in order:
            name = CHANNELS[i]
            values = self.rng.normal(0.0, 1.0, self.n_stations).astype(np.float32)
            yield name, values

    def next_frame(self):
        frame = {}
        for name, values in self.packets():
            frame[name] = values
        return frame
