"""Nudging assimilation of surface-station observations into a small background state.

Each tick the feed delivers the channels in a different order, so the observation dict is
built with a different key insertion order every time before it reaches the jitted update.
"""

import jax
import jax.numpy as jnp

from telemetry import CHANNELS, TelemetryFeed

N_STATIONS = 8


@jax.jit
def assimilate(background, obs, weights):
    """Relax each background field towards its observation with a per-channel weight."""
    analysis = {}
    for name, field in background.items():
        innovation = obs[name] - field
        analysis[name] = field + weights[name] * innovation
    rms = jnp.sqrt(sum(jnp.mean((obs[k] - analysis[k]) ** 2) for k in obs) / len(obs))
    return analysis, rms


def initial_background():
    return {name: jnp.zeros(N_STATIONS, dtype=jnp.float32) for name in CHANNELS}


def channel_weights():
    w = {"pressure": 0.6, "temperature": 0.4, "humidity": 0.3, "wind_u": 0.2, "wind_v": 0.2}
    return {k: jnp.float32(v) for k, v in w.items()}


def to_device(frame):
    return {name: jnp.asarray(values) for name, values in frame.items()}


def run_cycle(n_ticks=5):
    feed = TelemetryFeed(N_STATIONS, seed=3)
    background = initial_background()
    weights = channel_weights()
    for tick in range(n_ticks):
        frame = feed.next_frame()
        obs = to_device(frame)
        print(f"tick {tick}: channel order {list(obs)}")
        background, rms = assimilate(background, obs, weights)
        print(f"  residual rms {float(rms):.3f}")
    return background


if __name__ == "__main__":
    final = run_cycle()
    print({k: round(float(v.mean()), 3) for k, v in final.items()})
