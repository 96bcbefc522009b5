"""Replay one minute of plant traffic through the scoring service, tick by tick."""

import numpy as np

from service import MicroBatcher, init_params

N_FEATURES = 16


def readings_for_tick(rng, n_requests):
    for i in range(n_requests):
        pump = f"pump-{rng.integers(1, 9)}"
        spectrum = rng.normal(0.0, 1.0, size=N_FEATURES)
        if rng.random() < 0.1:
            spectrum[3] += 6.0  # bearing tone
        yield pump, spectrum


def replay(arrivals_per_tick, seed=1):
    rng = np.random.default_rng(seed)
    batcher = MicroBatcher(params=init_params(N_FEATURES, 4), threshold=1.5)
    alarms = 0
    for tick, n_requests in enumerate(arrivals_per_tick):
        for pump, spectrum in readings_for_tick(rng, n_requests):
            batcher.submit(pump, spectrum)
        results = batcher.flush()
        flagged = [sid for sid, _, is_anomaly in results if is_anomaly]
        alarms += len(flagged)
        print(f"tick {tick}: scored {len(results)} readings, flagged {flagged}")
    return alarms


if __name__ == "__main__":
    # Gateways push whatever arrived since the last tick.
    total = replay([3, 5, 3, 2, 5])
    print("total alarms:", total)
