"""Receiver chain pieces: pulse compression and automatic gain control."""
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass
class ReceiverConfig:
    n_range_bins: int = 128
    target_power: float = 1.0
    adapt_rate: float = 0.25
    initial_gain: float = 0.1  # expect: RTL401


def chirp_replica(n_taps, bandwidth=0.4):
    t = jnp.arange(n_taps, dtype=jnp.float32)
    phase = jnp.pi * bandwidth * t**2 / n_taps
    return jnp.cos(phase).astype(jnp.float32)


@jax.jit
def compress_pulse(raw, replica):
    n = raw.shape[-1]
    spec = jnp.fft.rfft(raw, n=2 * n) * jnp.conj(jnp.fft.rfft(replica, n=2 * n))
    return jnp.abs(jnp.fft.irfft(spec, n=2 * n)[:n])


@jax.jit
def apply_agc(profile, gain, target_power, adapt_rate):
    scaled = profile * gain
    power = jnp.mean(scaled**2)
    correction = jnp.sqrt(target_power / (power + 1e-6))
    new_gain = gain * (1.0 + adapt_rate * (correction - 1.0))
    return scaled, new_gain


class GainController:
    """Keeps the receiver gain between pulses."""

    def __init__(self, cfg):
        self.cfg = cfg
        self.gain = cfg.initial_gain  # expect: RTL401

    def process(self, profile):
        scaled, self.gain = apply_agc(
            profile, self.gain, self.cfg.target_power, self.cfg.adapt_rate
        )
        return scaled
