"""Time the probe's readout while the number of active channels is swept upwards."""

import time

import jax.numpy as jnp
from probe import Probe


def sweep(probe, signal, channel_counts):
    timings = []
    for count in channel_counts:
        start = time.perf_counter()
        values = probe.read(signal, count)
        values.block_until_ready()
        timings.append(time.perf_counter() - start)
    return timings


if __name__ == "__main__":
    signal = jnp.sin(jnp.linspace(0.0, 6.0, 20))
    for count, seconds in zip([5, 8, 10, 10, 10], sweep(Probe(gain=1.5), signal, [5, 8, 10, 10, 10])):
        print(count, f"{seconds * 1e3:.2f} ms")
