"""Adaptive line enhancer: a variable step-size LMS predictor that pulls narrow-band tones out of
broadband noise, processed block by block as samples arrive from the receiver."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


@jax.jit
def vss_lms_block(weights, gain, frames, desired, gain_lo, gain_hi, rho):
    """Run LMS over one block; the step size follows the correlation of successive errors."""

    def one_sample(carry, sample):
        w, mu, prev_err = carry
        x, d = sample
        y = jnp.dot(w, x)
        e = d - y
        w = w + mu * e * x
        mu = jnp.clip(mu + rho * e * prev_err, gain_lo, gain_hi)
        return (w, mu, e), y

    (w, mu, _), enhanced = lax.scan(one_sample, (weights, gain, jnp.zeros(())), (frames, desired))
    return w, mu, enhanced


class LineEnhancer:
    def __init__(self, taps, delay, gain, gain_bounds=(1e-4, 0.02), rho=1e-4):
        self.taps = taps
        self.delay = delay
        self.weights = jnp.zeros(taps, dtype=jnp.float32)
        self.gain = gain  # expect: RTL401
        self.gain_bounds = gain_bounds
        self.rho = rho
        self.history = []

    def _frames(self, block):
        # tap vectors delayed by `delay` samples predict the current sample
        windows = np.lib.stride_tricks.sliding_window_view(block, self.taps)
        n_out = len(block) - self.taps - self.delay + 1
        frames = windows[:n_out][:, ::-1]
        desired = block[self.taps + self.delay - 1 :]
        return jnp.asarray(frames), jnp.asarray(desired)

    def process(self, block):
        frames, desired = self._frames(block)
        lo, hi = self.gain_bounds
        self.weights, self.gain, enhanced = vss_lms_block(
            self.weights, self.gain, frames, desired, lo, hi, self.rho
        )
        self.history.append(float(self.gain))
        return enhanced
