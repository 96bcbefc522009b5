"""Replay a logged gyro stream (float32 samples) through the attitude estimator in double precision."""

import jax

jax.config.update("jax_enable_x64", True)

import numpy as np  # noqa: E402

from attitude import AttitudeEstimator  # noqa: E402


def gyro_log(n=20, seed=0):
    rng = np.random.default_rng(seed)
    base = np.array([0.02, -0.01, 0.3], np.float32)
    return [base + rng.normal(0.0, 0.01, 3).astype(np.float32) for _ in range(n)]


def main():
    level = np.array([1.0, 0.0, 0.0, 0.0], np.float32)
    estimator = AttitudeEstimator(level, dt=0.01)
    for sample in gyro_log():
        q = estimator.update(sample)
    print(f"final attitude {np.round(np.asarray(q), 4)} ({q.dtype})")


if __name__ == "__main__":
    main()
