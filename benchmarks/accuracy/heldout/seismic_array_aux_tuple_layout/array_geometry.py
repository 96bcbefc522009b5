"""Station layout of a small linear seismic array and the window container."""

import jax
import numpy as np


def load_layout():
    """Station names and offsets along the array axis (km), as read from a station file."""
    names = np.array(["AR01", "AR02", "AR03", "AR04", "AR05", "AR06"])
    offsets_km = np.array([0.0, 0.42, 0.81, 1.25, 1.66, 2.04])
    return names, offsets_km


@jax.tree_util.register_pytree_node_class
class ArrayWindow:
    """One time window of array data: traces are data, the layout is metadata."""

    def __init__(self, traces, offsets_km, sample_rate):
        self.traces = traces
        # keep the layout hashable: the treedef carries it into jit's cache key
        self.offsets_km = tuple(float(x) for x in offsets_km)
        self.sample_rate = float(sample_rate)

    def tree_flatten(self):
        return (self.traces,), (self.offsets_km, self.sample_rate)

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(children[0], *aux)

    @property
    def n_samples(self):
        return self.traces.shape[1]
