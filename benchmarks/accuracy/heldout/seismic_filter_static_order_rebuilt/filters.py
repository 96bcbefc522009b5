"""Windowed-sinc bandpass filters for seismometer traces, as a JAX pytree."""

from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
import numpy as np


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class BandpassFIR:
    taps: jax.Array
    gain: float
    numtaps: int = field(metadata={"static": True})
    zero_phase: bool = field(metadata={"static": True})


def design_bandpass(f_lo, f_hi, fs, numtaps=63, zero_phase=True, gain=1.0):
    """Hamming-windowed sinc bandpass; the corners vary per station, the length does not."""
    n = np.arange(numtaps) - (numtaps - 1) / 2
    hi = 2 * f_hi / fs * np.sinc(2 * f_hi / fs * n)
    lo = 2 * f_lo / fs * np.sinc(2 * f_lo / fs * n)
    taps = (hi - lo) * np.hamming(numtaps)
    return BandpassFIR(jnp.asarray(taps, jnp.float32), gain, numtaps, zero_phase)


@jax.jit
def apply_bandpass(filt, trace):
    y = jnp.convolve(trace, filt.taps, mode="same")
    if filt.zero_phase:
        y = jnp.convolve(y[::-1], filt.taps, mode="same")[::-1]
    return filt.gain * y
