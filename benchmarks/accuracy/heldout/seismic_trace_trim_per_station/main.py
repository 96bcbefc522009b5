"""Per-station event characterisation for a small local network.

Every station records the same 2 s of data around a catalogued event, but the
P onset arrives at a different sample at each station (different distances),
so the analyst keeps everything from the onset to the end of the record.
"""

from dataclasses import dataclass

import jax.numpy as jnp
import numpy as np

from picking import event_features, sta_lta_onset

SAMPLE_RATE = 100.0
RECORD_SECONDS = 2.0


@dataclass
class Station:
    code: str
    distance_km: float


def synthetic_record(station, rng):
    n = int(SAMPLE_RATE * RECORD_SECONDS)
    t = np.arange(n) / SAMPLE_RATE
    onset = 0.3 + station.distance_km / 60.0
    noise = 0.05 * rng.standard_normal(n)
    wavelet = np.where(t >= onset, np.exp(-(t - onset) * 4.0) * np.sin(2 * np.pi * 8.0 * (t - onset)), 0.0)
    return (noise + wavelet / (1.0 + station.distance_km / 20.0)).astype(np.float32)


class EventProcessor:
    def __init__(self, stations):
        self.stations = stations
        self.dt = jnp.float32(1.0 / SAMPLE_RATE)

    def cut_event(self, trace):
        onset = sta_lta_onset(trace)
        return trace[onset:]  # expect: RTL101

    def characterise(self, records):
        table = {}
        for station in self.stations:
            window = self.cut_event(records[station.code])
            table[station.code] = event_features(jnp.asarray(window), self.dt)
        return table


def main():
    rng = np.random.default_rng(7)
    stations = [
        Station("HRV1", 4.0),
        Station("HRV2", 11.0),
        Station("KLM3", 19.0),
        Station("KLM4", 27.0),
    ]
    records = {s.code: synthetic_record(s, rng) for s in stations}
    processor = EventProcessor(stations)
    table = processor.characterise(records)
    for code, feats in table.items():
        peak, energy, dominant = (float(v) for v in feats)
        print(f"{code}: peak={peak:.3f} energy={energy:.4f} f_dom={dominant:.1f} Hz")


if __name__ == "__main__":
    main()
