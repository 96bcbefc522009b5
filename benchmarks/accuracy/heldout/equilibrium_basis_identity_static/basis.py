"""A Zernike-times-Fourier basis for the flux-surface shape of a toroidal equilibrium."""

import jax.numpy as jnp
import numpy as np


class FourierZernikeBasis:
    def __init__(self, L, M, N):
        self.L, self.M, self.N = L, M, N
        self.modes = np.array(
            [(l, m, n) for l in range(L + 1) for m in range(-M, M + 1) for n in range(-N, N + 1) if abs(m) <= l and (l - abs(m)) % 2 == 0]
        )

    @property
    def num_modes(self):
        return len(self.modes)

    def evaluate(self, rho, theta, zeta):
        l, m, n = (self.modes[:, i] for i in range(3))
        radial = rho[:, None] ** np.abs(m)[None, :] * (1.0 + (l - np.abs(m))[None, :] * (rho[:, None] ** 2 - 1.0))
        poloidal = jnp.where(m >= 0, jnp.cos(m * theta[:, None]), jnp.sin(-m * theta[:, None]))
        toroidal = jnp.where(n >= 0, jnp.cos(n * zeta[:, None]), jnp.sin(-n * zeta[:, None]))
        return radial * poloidal * toroidal
