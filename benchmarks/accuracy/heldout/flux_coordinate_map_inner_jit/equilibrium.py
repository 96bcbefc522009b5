"""A toy stellarator equilibrium: the straight-field-line angle lambda as a short Fourier series."""

from dataclasses import dataclass

import jax.numpy as jnp


def lambda_series(modes, rho, theta):
    m = jnp.arange(1, modes.shape[0] + 1)
    return rho * jnp.sum(modes * jnp.sin(m * theta[..., None]), axis=-1)


@dataclass
class Equilibrium:
    lambda_modes: jnp.ndarray  # amplitudes of sin(m * theta), m = 1, 2, ...
    iota: float

    def lambda_(self, rho, theta):
        return lambda_series(self.lambda_modes, rho, theta)
