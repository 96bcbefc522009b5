"""Per-station stage readings, resampled onto a fixed hourly grid."""

import numpy as np

HOURS = np.arange(24, dtype=np.float64)


class GaugeStation:
    def __init__(self, name, area_km2, rating_a, rating_b, seed):
        self.name = name
        self.area_km2 = area_km2
        self.rating = np.array([rating_a, rating_b], dtype=np.float32)
        self._rng = np.random.default_rng(seed)

    def raw_readings(self, day):
        # loggers report at irregular times and a different count each day
        n = 17 + (day * 5 + len(self.name)) % 11
        times = np.sort(self._rng.uniform(0.0, 24.0, size=n))
        stage = 1.2 + 0.3 * np.sin(times / 24.0 * 2 * np.pi + day) + 0.05 * self._rng.standard_normal(n)
        if day % 3 == 1:
            stage[n // 2] = np.nan  # a dropped sample
        return times, stage

    def hourly_stage(self, day):
        times, stage = self.raw_readings(day)
        ok = ~np.isnan(stage)
        return np.interp(HOURS, times[ok], stage[ok]).astype(np.float32)
