"""Count hits per channel over a run of event windows; x64 is on for the float64 calibration constants."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp
import numpy as np

import detector

GAIN = np.linspace(0.95, 1.05, detector.N_CHANNELS)  # float64 calibration from the test bench


def event_windows(rng, n_windows, samples=64):
    for _ in range(n_windows):
        raw = rng.normal(0.0, 1.0, (samples, detector.N_CHANNELS))
        raw[rng.integers(0, samples, 5), rng.integers(0, detector.N_CHANNELS, 5)] += 8.0
        yield jnp.asarray(raw * GAIN)


def main(n_windows=20, seed=0):
    rng = np.random.default_rng(seed)
    counts = detector.empty_counts()
    for window in event_windows(rng, n_windows):
        threshold = detector.pedestal(window) + 5.0
        counts = detector.accumulate(counts, window, threshold)
    print(f"{int(counts.sum())} hits, busiest channel {int(counts.argmax())}, counts {counts.dtype}")


if __name__ == "__main__":
    main()
