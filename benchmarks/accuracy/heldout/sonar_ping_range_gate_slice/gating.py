"""Range gating for a single-beam echo sounder."""

from dataclasses import dataclass

SOUND_SPEED = 1500.0  # m/s


@dataclass
class RangeGate:
    fs: float          # sample rate of the receiver, Hz
    min_range: float   # ignore ringing close to the transducer, m
    margin: float = 1.25

    def bounds(self, depth):
        start = int(2.0 * self.min_range / SOUND_SPEED * self.fs)
        stop = int(2.0 * depth * self.margin / SOUND_SPEED * self.fs)
        return start, stop

    def apply(self, echo, depth):
        """Keep only the samples between the blanking range and just past the bottom."""
        start, stop = self.bounds(depth)
        return echo[start:stop], start  # expect: RTL101
