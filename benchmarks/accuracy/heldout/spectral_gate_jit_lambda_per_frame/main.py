"""Spectral noise gate for a field recording, processed frame by frame."""

import jax
import jax.numpy as jnp
import numpy as np

from dsp import FRAME, HOP, analyse, frames_of, soft_gate


class SpectralGate:
    def __init__(self, noise_clip, reduction=0.1):
        self.window = jnp.hanning(FRAME).astype(jnp.float32)
        self.reduction = reduction
        noise_frames = frames_of(noise_clip)
        spectra = jnp.stack([analyse(f, self.window) for f in noise_frames])
        self.noise_floor = jnp.mean(jnp.abs(spectra), axis=0)

    def process_frame(self, frame):
        spec = analyse(frame, self.window)

        def gate_and_invert(s):
            cleaned = soft_gate(s, self.noise_floor, self.reduction)
            return jnp.fft.irfft(cleaned, n=FRAME) * self.window

        return jax.jit(gate_and_invert)(spec)  # expect: RTL301

    def process(self, signal):
        out = jnp.zeros(signal.shape[0], jnp.float32)
        for i, frame in enumerate(frames_of(signal)):
            start = i * HOP
            out = out.at[start:start + FRAME].add(self.process_frame(frame))
        return out


def synth_recording(rng, n):
    t = np.arange(n) / 8000.0
    birdsong = 0.6 * np.sin(2 * np.pi * 2100.0 * t) * (t > 0.005)
    hiss = 0.05 * rng.standard_normal(n)
    return jnp.asarray(birdsong + hiss, jnp.float32), jnp.asarray(hiss, jnp.float32)


if __name__ == "__main__":
    rng = np.random.default_rng(7)
    recording, noise = synth_recording(rng, FRAME + 4 * HOP)
    gate = SpectralGate(noise)
    cleaned = gate.process(recording)
    print("rms in ", float(jnp.sqrt(jnp.mean(recording ** 2))))
    print("rms out", float(jnp.sqrt(jnp.mean(cleaned ** 2))))
