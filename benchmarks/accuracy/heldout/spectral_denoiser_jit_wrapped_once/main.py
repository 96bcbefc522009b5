"""Denoise a synthetic tone buried in noise, block by block, as a streaming pipeline would."""

import jax
import jax.numpy as jnp
import numpy as np

import dsp


class StreamingDenoiser:
    def __init__(self, noise_psd, over_subtraction=1.5, alpha=0.9):
        self.noise_psd = noise_psd
        self.over_subtraction = jnp.float32(over_subtraction)
        self.alpha = jnp.float32(alpha)
        # jit the tracker once per denoiser, not once per block
        self._track = jax.jit(dsp._smooth_psd)

    def process(self, frame):
        clean = dsp.denoise(frame, self.noise_psd, self.over_subtraction)
        frame_psd = jnp.abs(jnp.fft.rfft(frame)) ** 2
        self.noise_psd = self._track(self.noise_psd, frame_psd, self.alpha)
        return clean


def frames_of(signal):
    starts = range(0, len(signal) - dsp.FRAME + 1, dsp.HOP)
    return [signal[s:s + dsp.FRAME] for s in starts]


def overlap_add(blocks, length):
    out = np.zeros(length, np.float32)
    for i, block in enumerate(blocks):
        out[i * dsp.HOP:i * dsp.HOP + dsp.FRAME] += np.asarray(block)
    return out


if __name__ == "__main__":
    rng = np.random.default_rng(7)
    sr = 8000
    t = np.arange(sr // 8) / sr
    noise = rng.normal(0, 0.3, t.shape).astype(np.float32)
    signal = (np.sin(2 * np.pi * 440 * t) + noise).astype(np.float32)

    lead_in = np.stack(frames_of(noise[: 4 * dsp.FRAME])[:4])
    denoiser = StreamingDenoiser(dsp.estimate_noise_floor(jnp.asarray(lead_in)))
    blocks = [denoiser.process(jnp.asarray(f)) for f in frames_of(signal)[:6]]
    cleaned = overlap_add(blocks, len(signal))
    print("blocks:", len(blocks), "input rms:", float(np.sqrt(np.mean(signal[:1024] ** 2))),
          "output rms:", float(np.sqrt(np.mean(cleaned[:1024] ** 2))))
