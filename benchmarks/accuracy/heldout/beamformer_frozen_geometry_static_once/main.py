"""Delay-and-sum beamforming of a microphone array, block by block.

The array geometry is rebuilt from the rig description for every block (the
rig file could in principle change between blocks); it is a frozen dataclass
and is handed to the jitted beamformer as a static argument.
"""

import dataclasses
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

FS = 8000.0
BLOCK = 256
RIG = {"spacing_m": 0.05, "n_mics": 4, "temperature_c": 20.0}


@dataclasses.dataclass(frozen=True)
class ArrayGeometry:
    positions: tuple          # metres along the array axis
    sound_speed: float        # m/s
    angles_deg: tuple         # steering grid


def make_geometry(rig):
    n = rig["n_mics"]
    positions = tuple(float(i * rig["spacing_m"]) for i in range(n))
    c = 331.3 + 0.606 * rig["temperature_c"]
    angles = tuple(float(a) for a in np.linspace(-60.0, 60.0, 9))
    return ArrayGeometry(positions=positions, sound_speed=c, angles_deg=angles)


@partial(jax.jit, static_argnums=(1,))
def steered_power(frames, geometry):
    # frames: (n_mics, BLOCK)
    spec = jnp.fft.rfft(frames, axis=-1)
    freqs = jnp.fft.rfftfreq(frames.shape[-1], d=1.0 / FS)
    pos = jnp.asarray(geometry.positions)
    theta = jnp.deg2rad(jnp.asarray(geometry.angles_deg))
    delays = pos[None, :] * jnp.sin(theta)[:, None] / geometry.sound_speed   # (A, M)
    phase = jnp.exp(2j * jnp.pi * freqs[None, None, :] * delays[:, :, None])
    beams = jnp.sum(spec[None] * phase, axis=1)                               # (A, F)
    return jnp.sum(jnp.abs(beams) ** 2, axis=-1)


def synth_block(rng, true_angle_deg, geometry):
    t = np.arange(BLOCK) / FS
    lag = np.asarray(geometry.positions) * np.sin(np.deg2rad(true_angle_deg)) / geometry.sound_speed
    sig = np.sin(2 * np.pi * 900.0 * (t[None, :] - lag[:, None]))
    return (sig + 0.1 * rng.standard_normal(sig.shape)).astype(np.float32)


def track_source(n_blocks=5):
    rng = np.random.default_rng(3)
    estimates = []
    for b in range(n_blocks):
        geometry = make_geometry(RIG)
        frames = synth_block(rng, true_angle_deg=-30.0 + 15.0 * b, geometry=geometry)
        power = steered_power(jnp.asarray(frames), geometry)
        estimates.append(geometry.angles_deg[int(jnp.argmax(power))])
    return estimates


if __name__ == "__main__":
    print("DOA per block:", track_source())
