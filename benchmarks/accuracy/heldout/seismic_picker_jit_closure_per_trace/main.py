"""Pick P-wave onsets on a small regional network, one trace per station."""

import numpy as np

from picker import StaLtaPicker

SAMPLING_RATE = 20.0
DURATION_S = 60.0
STATIONS = ["ANMO", "CCM", "HRV", "PFO", "TUC"]


def synthetic_trace(rng, onset_s, amplitude):
    n = int(DURATION_S * SAMPLING_RATE)
    t = np.arange(n) / SAMPLING_RATE
    noise = 0.2 * rng.standard_normal(n)
    arrival = np.where(t >= onset_s, 1.0, 0.0)
    wavelet = amplitude * arrival * np.exp(-(t - onset_s) * 0.8) * np.sin(2 * np.pi * 3.0 * t)
    return (noise + wavelet).astype(np.float32)


def load_event(seed):
    rng = np.random.default_rng(seed)
    onsets = 20.0 + 2.5 * np.arange(len(STATIONS))
    return {
        sta: synthetic_trace(rng, onset, 3.0 + i)
        for i, (sta, onset) in enumerate(zip(STATIONS, onsets))
    }


def pick_event(picker, traces):
    picks = {}
    for station, trace in traces.items():
        onset, peak = picker(trace)
        picks[station] = (None if onset is None else onset / SAMPLING_RATE, peak)
    return picks


def main():
    picker = StaLtaPicker(sampling_rate=SAMPLING_RATE)
    traces = load_event(seed=7)
    picks = pick_event(picker, traces)
    for station, (onset_s, peak) in picks.items():
        label = "no pick" if onset_s is None else f"{onset_s:6.2f} s"
        print(f"{station:5s} {label}  peak STA/LTA {peak:5.1f}")


if __name__ == "__main__":
    main()
