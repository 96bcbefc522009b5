"""STA/LTA onset picking for single-component seismograms."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp


def sta_lta(trace, nsta, nlta):
    """Ratio of short-term to long-term average of the squared signal."""
    energy = trace**2
    csum = jnp.cumsum(energy)
    sta = (csum[nsta:] - csum[:-nsta]) / nsta
    lta = (csum[nlta:] - csum[:-nlta]) / nlta
    # align both averages on the end of the long window
    sta = sta[nlta - nsta:]
    return sta / (lta + 1e-12)


@jax.jit
def trigger_mask(ratio, on_level):
    return ratio > on_level


@dataclass
class StaLtaPicker:
    sampling_rate: float
    sta_seconds: float = 0.5
    lta_seconds: float = 5.0
    on_level: float = 3.0

    @property
    def nsta(self):
        return int(self.sta_seconds * self.sampling_rate)

    @property
    def nlta(self):
        return int(self.lta_seconds * self.sampling_rate)

    def __call__(self, trace):
        nsta, nlta = self.nsta, self.nlta

        def characteristic(tr):
            return sta_lta(tr, nsta, nlta)

        ratio = jax.jit(characteristic)(trace)  # expect: RTL301
        mask = trigger_mask(ratio, jnp.float32(self.on_level))
        onset = int(jnp.argmax(mask)) + nlta if bool(mask.any()) else None
        return onset, float(ratio.max())
