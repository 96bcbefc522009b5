"""A toy tokamak equilibrium: a normalised flux grid, pressure and safety-factor profiles, and the
splines fitted to them, which are left unset until the first fit."""

import jax.numpy as jnp


class Equilibrium:
    def __init__(self, n_psi=32, q0=1.1, qa=3.4):
        self.psi = jnp.linspace(0.0, 1.0, n_psi, dtype=jnp.float32)
        self.q0 = q0
        self.qa = qa
        self.pressure_scale = 1.0
        self.q_spline = None  # expect: RTL403

    def q_profile(self):
        shift = 0.15 * self.pressure_scale
        return self.q0 + (self.qa - self.q0) * self.psi**2 + shift * self.psi * (1.0 - self.psi)
