"""Online anomaly score over a sliding window of sensor readings kept in a buffer."""

import jax
import jax.numpy as jnp


@jax.jit
def anomaly_score(window, reading):
    mean = window.mean(axis=0)
    std = window.std(axis=0) + 1e-3
    return jnp.max(jnp.abs(reading - mean) / std)


def push(window, reading):
    return jnp.concatenate([window, reading[None]])  # expect: RTL102


def monitor(readings, keep=3):
    window = readings[0][None]
    scores = []
    for reading in readings[1:]:
        scores.append(float(anomaly_score(window, reading)))
        window = push(window, reading)
        if window.shape[0] > keep:
            window = window[1:]
    return scores


if __name__ == "__main__":
    readings = [jnp.array([1.0, 2.0]) + 0.1 * k for k in range(7)]
    print(monitor(readings))
