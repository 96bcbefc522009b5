"""An equilibrium: spectral coefficients of R on its own basis, and its force-balance residual."""

from functools import partial

import jax
import jax.numpy as jnp
from basis import FourierZernikeBasis


@partial(jax.jit, static_argnames=("basis",))
def force_residual(coeffs, rho, theta, zeta, basis):
    R = basis.evaluate(rho, theta, zeta) @ coeffs
    target = 10.0 + rho * jnp.cos(theta)
    return jnp.mean((R - target) ** 2)


class Equilibrium:
    def __init__(self, L, M, N, coeffs=None):
        self.L, self.M, self.N = L, M, N
        self.R_basis = FourierZernikeBasis(L, M, N)  # expect: RTL204
        self.coeffs = jnp.zeros(self.R_basis.num_modes) if coeffs is None else coeffs

    def residual(self, grid):
        return force_residual(self.coeffs, *grid, basis=self.R_basis)  # expect: RTL204

    def perturbed(self, delta):
        return Equilibrium(self.L, self.M, self.N, self.coeffs + delta)  # expect: RTL204
