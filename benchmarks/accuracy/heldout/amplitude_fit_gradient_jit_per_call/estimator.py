"""Unbinned negative log-likelihood for a Breit-Wigner line shape over a flat background."""

import jax
import jax.numpy as jnp

M_LO, M_HI = 0.6, 1.2


def breit_wigner_intensity(m, mass, width):
    return 1.0 / ((m**2 - mass**2) ** 2 + (mass * width) ** 2)


class UnbinnedNLL:
    def __init__(self, data, phsp):
        self.data = data
        self.phsp = phsp  # uniform phase-space sample for the normalisation integral
        self._value = jax.jit(self._nll)

    def _nll(self, params):
        mass, width, frac = params["mass"], params["width"], params["frac"]
        sig_data = breit_wigner_intensity(self.data, mass, width)
        sig_phsp = breit_wigner_intensity(self.phsp, mass, width)
        norm = jnp.mean(sig_phsp) * (M_HI - M_LO)
        density = frac * sig_data / norm + (1.0 - frac) / (M_HI - M_LO)
        return -jnp.sum(jnp.log(density))

    def __call__(self, params):
        return self._value(params)

    def gradient(self, params):
        grad_fn = jax.jit(jax.grad(self._nll))  # expect: RTL301
        return grad_fn(params)
