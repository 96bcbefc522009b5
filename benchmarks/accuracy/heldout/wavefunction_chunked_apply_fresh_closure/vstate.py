"""Variational state over the full Hilbert space of a small chain (exact sums, no sampling)."""

from functools import partial
import itertools

import jax
import jax.numpy as jnp
import numpy as np

from rbm import apply_chunked


def all_configurations(n_sites):
    return jnp.asarray(np.array(list(itertools.product([-1.0, 1.0], repeat=n_sites)), dtype=np.float32))


@partial(jax.jit, static_argnums=0)
def _normalised_amplitudes(apply_fn, params, states):
    logs = apply_fn(params, states)
    psi = jnp.exp(logs - jnp.max(logs))
    return psi / jnp.linalg.norm(psi)


class ExactState:
    def __init__(self, apply_fun, params, n_sites, chunk_size=None):
        self._apply_fun = apply_fun
        self.params = params
        self.states = all_configurations(n_sites)
        self.chunk_size = chunk_size

    def to_array(self):
        """The normalised wavefunction on every basis state."""
        if self.chunk_size is None:
            fn = self._apply_fun
        else:
            fn = apply_chunked(self._apply_fun, self.chunk_size)  # expect: RTL204
        return _normalised_amplitudes(fn, self.params, self.states)  # expect: RTL204
