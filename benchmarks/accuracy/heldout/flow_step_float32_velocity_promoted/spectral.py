"""Pseudo-spectral pieces of a small periodic 2-D incompressible flow solver."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np


@dataclass(frozen=True)
class Grid:
    size: int
    length: float = 2 * np.pi

    @property
    def step(self):
        return self.length / self.size

    def wavenumbers(self):
        k = np.fft.fftfreq(self.size, d=self.step) * 2 * np.pi
        kx, ky = np.meshgrid(k, k, indexing="ij")
        return kx, ky


def stable_time_step(max_velocity, cfl_safety_factor, viscosity, grid):
    # plain NumPy arithmetic: the result is a np.float64 scalar
    dx = np.float64(grid.step)
    advective = cfl_safety_factor * dx / max_velocity
    diffusive = cfl_safety_factor * dx**2 / viscosity
    return np.minimum(advective, diffusive)


def filtered_velocity_field(key, grid, max_velocity, peak_wavenumber=3):
    kx, ky = grid.wavenumbers()
    k2 = kx**2 + ky**2
    envelope = jnp.exp(-((np.sqrt(k2) - peak_wavenumber) ** 2))
    noise = jax.random.normal(key, (2, grid.size, grid.size))
    fields = []
    for component in noise:
        smooth = jnp.fft.ifft2(jnp.fft.fft2(component) * envelope).real
        fields.append(smooth)
    scale = max_velocity / max(float(jnp.abs(f).max()) for f in fields)
    return tuple(f * scale for f in fields)


def semi_implicit_navier_stokes(density, viscosity, dt, grid):
    kx, ky = grid.wavenumbers()
    k2 = kx**2 + ky**2
    k2_safe = np.where(k2 == 0, 1.0, k2)
    implicit = 1.0 / (1.0 + dt * viscosity * k2)

    def project(uh, vh):
        div = kx * uh + ky * vh
        return uh - kx * div / k2_safe, vh - ky * div / k2_safe

    @jax.jit
    def navier_stokes_step(velocity):
        u, v = velocity
        ux, uy = jnp.gradient(u, grid.step)
        vx, vy = jnp.gradient(v, grid.step)
        adv_u = u * ux + v * uy
        adv_v = u * vx + v * vy
        uh = jnp.fft.fft2(u - dt * adv_u / density)
        vh = jnp.fft.fft2(v - dt * adv_v / density)
        uh, vh = project(uh * implicit, vh * implicit)
        return jnp.fft.ifft2(uh).real, jnp.fft.ifft2(vh).real

    return navier_stokes_step
