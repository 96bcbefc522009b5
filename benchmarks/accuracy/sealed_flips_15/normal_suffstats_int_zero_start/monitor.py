"""A sensor monitor: fits a Normal to each window of readings and flags windows whose mean drifts
from the reference by more than a few standard errors."""

from suffstats import NormalStats


class DriftMonitor:
    def __init__(self, reference_mean, threshold=3.0):
        self.reference_mean = reference_mean
        self.threshold = threshold
        self.stats = NormalStats()

    def check(self, window_chunks):
        self.stats.reset()
        for chunk in window_chunks:
            self.stats.update(chunk)
        mean, std = self.stats.fit()
        standard_error = std / self.stats.n**0.5
        return mean, abs(mean - self.reference_mean) > self.threshold * standard_error
