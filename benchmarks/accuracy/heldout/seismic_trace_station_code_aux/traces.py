"""A minimal waveform container that can cross jax.jit boundaries."""

import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class Trace:
    """Vertical-component samples plus the metadata needed to interpret them."""

    def __init__(self, samples, station, sampling_rate):
        self.samples = samples
        self.station = station
        self.sampling_rate = sampling_rate

    def tree_flatten(self):
        return (self.samples,), (self.station, self.sampling_rate)  # expect: RTL201

    @classmethod
    def tree_unflatten(cls, aux, children):
        station, sampling_rate = aux
        return cls(children[0], station, sampling_rate)

    @property
    def duration(self):
        return self.samples.shape[-1] / self.sampling_rate


def demean(trace):
    return Trace(trace.samples - jnp.mean(trace.samples), trace.station, trace.sampling_rate)
