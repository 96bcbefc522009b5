"""A small seismogram container that can be passed straight into jitted code."""

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Seismogram:
    """Samples of one channel plus the header a picker needs."""

    def __init__(self, samples, station, start_time, dt):
        self.samples = samples
        self.station = station
        self.start_time = start_time  # seconds since the start of the day
        self.dt = dt

    def tree_flatten(self):
        # the header is metadata, not data: keep it out of the traced leaves
        header = (self.station, self.start_time, self.dt)  # expect: RTL202
        return (self.samples,), header

    @classmethod
    def tree_unflatten(cls, header, children):
        station, start_time, dt = header
        return cls(children[0], station, start_time, dt)

    @property
    def npts(self):
        return self.samples.shape[-1]

    def times(self):
        return self.start_time + self.dt * jnp.arange(self.npts)
