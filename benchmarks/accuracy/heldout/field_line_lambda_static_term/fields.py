"""Magnetic field of a tokamak-like configuration: a 1/R toroidal field plus line currents."""

import jax.numpy as jnp

B0 = 1.0  # toroidal field on the magnetic axis [T]
R0 = 1.5  # major radius of the axis [m]


def poloidal_field(R, Z, positions, currents):
    """B_R, B_Z of straight filaments at positions (Rc, Zc) carrying currents (2D Biot-Savart)."""
    dR = R[..., None] - positions[:, 0]
    dZ = Z[..., None] - positions[:, 1]
    d2 = dR**2 + dZ**2 + 1e-6
    B_R = -jnp.sum(currents * dZ / d2, axis=-1)
    B_Z = jnp.sum(currents * dR / d2, axis=-1)
    return B_R, B_Z


def field_line_rhs(phi, x, positions, currents):
    """d(R, Z)/dphi along a field line, for a batch of lines x[..., (R, Z)]."""
    R, Z = x[..., 0], x[..., 1]
    B_R, B_Z = poloidal_field(R, Z, positions, currents)
    B_phi = B0 * R0 / R
    return jnp.stack([R * B_R / B_phi, R * B_Z / B_phi], axis=-1)
