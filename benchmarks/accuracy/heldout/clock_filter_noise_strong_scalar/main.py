"""Track a receiver clock's offset from pseudorange residuals, with one clock jump."""

import numpy as np

from clock_filter import ClockTracker

CONFIG = {"process_noise": 1e-4, "meas_noise": 0.04}


def residuals(n_epochs=12, seed=0):
    rng = np.random.default_rng(seed)
    offset, drift = 0.0, 0.02
    for epoch in range(n_epochs):
        offset += drift + (3.0 if epoch == 6 else 0.0)
        yield np.float32(offset + 0.2 * rng.normal())


def main():
    tracker = ClockTracker(CONFIG)
    for epoch, z in enumerate(residuals()):
        estimate = tracker.update(z)
        print(f"epoch {epoch:2d}: offset {estimate:7.3f}, q {float(tracker.process_noise):.2e}")


if __name__ == "__main__":
    main()
