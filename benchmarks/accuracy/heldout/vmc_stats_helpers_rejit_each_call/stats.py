"""Weighted Monte Carlo statistics: means, centred data and covariances of sampled observables."""

import jax
import jax.numpy as jnp

import devices
from devices import devices_updated

_mean_helper = None
_center_helper = None
_covar_helper = None


def jit_my_stuff():
    # Rebuild the jitted helpers whenever the device selection changed since they were made.
    global _mean_helper, _center_helper, _covar_helper
    global helper_devices

    if devices_updated():

        def weighted_mean(data, w):
            return jnp.tensordot(w, data, axes=(0, 0))

        def centered(data, w, mean):
            return jax.vmap(lambda d, wi: jnp.sqrt(wi) * (d - mean))(data, w)

        def weighted_covar(data1, data2):
            return jnp.tensordot(jnp.conj(data1), data2, axes=(0, 0))

        _mean_helper = jax.jit(weighted_mean)  # expect: RTL301
        _center_helper = jax.jit(centered)  # expect: RTL301
        _covar_helper = jax.jit(weighted_covar)  # expect: RTL301

        helper_devices = devices.my_devices


class SampledObs:
    """Observations O_n with weights w_n (exact enumeration or Monte Carlo)."""

    def __init__(self, observations, weights):
        jit_my_stuff()
        self._weights = weights
        self._mean = _mean_helper(observations, weights)
        self._data = _center_helper(observations, weights, self._mean)

    def mean(self):
        return self._mean

    def covar(self, other=None):
        jit_my_stuff()
        if other is None:
            other = self
        return _covar_helper(self._data, other._data)
