"""A radial-spectrum descriptor calculator; the calculation itself always runs in double precision."""

import jax
import jax.numpy as jnp


def radial_spectrum(positions, centers, width, cutoff):
    positions = positions.astype(jnp.float64)  # expect: RTL402
    diff = positions[:, None, :] - positions[None, :, :]
    dist = jnp.sqrt(jnp.sum(diff * diff, axis=-1) + jnp.eye(positions.shape[0]))
    smooth = jnp.where(dist < cutoff, 0.5 * (jnp.cos(jnp.pi * dist / cutoff) + 1.0), 0.0)
    smooth = smooth * (1.0 - jnp.eye(positions.shape[0]))
    basis = jnp.exp(-((dist[..., None] - centers) ** 2) / (2.0 * width**2))
    return jnp.sum(basis * smooth[..., None], axis=1)


class RadialSpectrum:
    def __init__(self, n_basis=8, cutoff=4.0):
        self.centers = jnp.linspace(0.5, cutoff, n_basis)
        self.width = 0.5
        self.cutoff = cutoff
        self._compute = jax.jit(radial_spectrum)

    def compute(self, positions):
        return self._compute(positions, self.centers, self.width, self.cutoff)
