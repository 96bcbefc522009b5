"""Particle-mesh pieces: density assignment, gravity on the mesh, kick and drift."""

import jax
import jax.numpy as jnp

MESH = 8


def _cic_weights(pos):
    cell = jnp.floor(pos).astype(jnp.int32)
    frac = pos - cell
    return cell % MESH, frac


@jax.jit
def paint_density(pos):
    cell, _ = _cic_weights(pos)
    grid = jnp.zeros((MESH, MESH, MESH))
    grid = grid.at[cell[:, 0], cell[:, 1], cell[:, 2]].add(1.0)
    return grid / grid.mean() - 1.0


@jax.jit
def gravity(pos):
    delta = paint_density(pos)
    k = jnp.fft.fftfreq(MESH) * 2 * jnp.pi
    kx, ky, kz = jnp.meshgrid(k, k, k, indexing="ij")
    k2 = kx**2 + ky**2 + kz**2
    phi_k = -jnp.fft.fftn(delta) / jnp.where(k2 == 0, 1.0, k2)
    phi_k = jnp.where(k2 == 0, 0.0, phi_k)
    grads = [jnp.real(jnp.fft.ifftn(1j * kk * phi_k)) for kk in (kx, ky, kz)]
    cell, _ = _cic_weights(pos)
    return -jnp.stack([g[cell[:, 0], cell[:, 1], cell[:, 2]] for g in grads], axis=1)


@jax.jit
def kick(vel, acc, dt):
    return vel + acc * dt


@jax.jit
def drift(pos, vel, dt):
    return (pos + vel * dt) % MESH


@jax.jit
def power_spectrum(pos):
    delta_k = jnp.fft.fftn(paint_density(pos))
    return jnp.mean(jnp.abs(delta_k) ** 2)
