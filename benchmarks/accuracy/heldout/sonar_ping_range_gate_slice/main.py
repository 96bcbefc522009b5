"""Bottom tracking on a survey line: gate each ping around the altimeter depth, then matched-filter."""

import jax
import jax.numpy as jnp
import numpy as np

from gating import SOUND_SPEED, RangeGate

FS = 20_000.0
PING_SAMPLES = 600


def make_replica(n=24, f0=3_000.0):
    t = np.arange(n) / FS
    return jnp.asarray(np.sin(2 * np.pi * f0 * t) * np.hanning(n), dtype=jnp.float32)


@jax.jit
def matched_filter_energy(gated, replica):
    corr = jnp.convolve(gated, replica[::-1], mode="same")
    env = jnp.abs(corr)
    smooth = jnp.convolve(env, jnp.ones(5) / 5.0, mode="same")
    return smooth, jnp.argmax(smooth)


class BottomTracker:
    def __init__(self, gate, replica):
        self.gate = gate
        self.replica = replica
        self.track = []

    def process(self, echo, altimeter_depth):
        gated, offset = self.gate.apply(echo, altimeter_depth)
        _, peak = matched_filter_energy(gated, self.replica)
        sample = offset + int(peak)
        depth = sample / FS * SOUND_SPEED / 2.0
        self.track.append(depth)
        return depth


def simulate_ping(depth, replica, rng):
    echo = rng.normal(0.0, 0.05, PING_SAMPLES).astype(np.float32)
    k = int(2.0 * depth / SOUND_SPEED * FS)
    echo[k : k + replica.shape[0]] += np.asarray(replica)
    return jnp.asarray(echo)


def run_line(depths, altimeter_bias=0.3, seed=0):
    rng = np.random.default_rng(seed)
    replica = make_replica()
    tracker = BottomTracker(RangeGate(fs=FS, min_range=2.0), replica)
    for depth in depths:
        echo = simulate_ping(depth, replica, rng)
        tracker.process(echo, depth + altimeter_bias)
    return tracker.track


if __name__ == "__main__":
    track = run_line([12.0, 13.5, 15.2, 16.8, 18.1])
    print([round(d, 2) for d in track])
