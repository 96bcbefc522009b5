"""Streaming denoiser for a strain-gauge channel.

Each incoming chunk is smoothed with a moving average whose window length is
picked from the chunk's estimated noise level: noisier chunks get a longer
window.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

SAMPLE_RATE = 200.0


@partial(jax.jit, static_argnames=("window",))
def moving_average(x, window):
    kernel = jnp.ones((window,), x.dtype) / window
    return jnp.convolve(x, kernel, mode="same")


@jax.jit
def robust_noise(x):
    d = jnp.diff(x)
    return 1.4826 * jnp.median(jnp.abs(d - jnp.median(d))) / jnp.sqrt(2.0)


def choose_window(noise_level, base=3, per_unit=40):
    """Map a noise estimate to an odd window length."""
    w = base + int(per_unit * noise_level)
    return w if w % 2 == 1 else w + 1


class AdaptiveSmoother:
    def __init__(self, base_window=3):
        self.base_window = base_window
        self.window = base_window
        self.history = []

    def update_window(self, chunk):
        noise = float(robust_noise(chunk))
        self.window = choose_window(noise, base=self.base_window)
        return noise

    def process(self, chunk):
        noise = self.update_window(chunk)
        smoothed = moving_average(chunk, window=self.window)  # expect: RTL201
        self.history.append((noise, self.window))
        return smoothed


def acquire_chunks(n_chunks, length=256, seed=1):
    rng = np.random.default_rng(seed)
    t = np.arange(length) / SAMPLE_RATE
    for i in range(n_chunks):
        sigma = 0.05 + 0.08 * i
        signal = np.sin(2 * np.pi * 1.5 * t) + sigma * rng.standard_normal(length)
        yield jnp.asarray(signal, dtype=jnp.float32)


if __name__ == "__main__":
    smoother = AdaptiveSmoother(base_window=3)
    outputs = [smoother.process(chunk) for chunk in acquire_chunks(5)]
    for (noise, window), out in zip(smoother.history, outputs):
        print(f"noise={noise:.3f} window={window:2d} rms={float(jnp.sqrt(jnp.mean(out**2))):.3f}")
