"""Online anomaly score over the last few sensor readings, kept in a fixed-size ring buffer."""

import jax
import jax.numpy as jnp


@jax.jit
def anomaly_score(window, filled, reading):
    valid = (jnp.arange(window.shape[0]) < filled)[:, None]
    count = jnp.maximum(valid.sum(), 1)
    mean = jnp.sum(window * valid, axis=0) / count
    var = jnp.sum(((window - mean) * valid) ** 2, axis=0) / count
    return jnp.max(jnp.abs(reading - mean) / (jnp.sqrt(var) + 1e-3))


def monitor(readings, keep=3):
    window = jnp.zeros((keep, readings[0].shape[0]))
    scores = []
    for i, reading in enumerate(readings):
        scores.append(float(anomaly_score(window, min(i, keep), reading)))
        window = window.at[i % keep].set(reading)
    return scores


if __name__ == "__main__":
    readings = [jnp.array([1.0, 2.0]) + 0.1 * k for k in range(7)]
    print(monitor(readings))
