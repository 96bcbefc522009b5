"""Unitary time stepping of a tight-binding chain threaded by a magnetic flux, with a running autocorrelation."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class WaveState(NamedTuple):
    psi: jax.Array
    psi0: jax.Array
    time: jax.Array
    # Running integral of <psi0|psi(t)> dt: its Fourier transform is the local density of states.
    autocorr: jax.Array


def hamiltonian(n_sites, hopping=1.0, flux=0.3):
    # Peierls phase on every bond, periodic boundary: a complex Hermitian matrix.
    phase = jnp.exp(1j * flux * 2 * jnp.pi / n_sites).astype(jnp.complex64)
    off = -hopping * phase * jnp.eye(n_sites, k=1, dtype=jnp.complex64)
    off = off.at[n_sites - 1, 0].set(-hopping * phase)
    return off + off.conj().T


def propagator(ham, dt):
    evals, evecs = jnp.linalg.eigh(ham)
    return (evecs * jnp.exp(-1j * evals * dt)) @ evecs.conj().T


def wave_packet(n_sites, center, width=2.0, momentum=0.8):
    x = jnp.arange(n_sites, dtype=jnp.float32)
    envelope = jnp.exp(-((x - center) ** 2) / (2 * width**2))
    psi = envelope * jnp.exp(1j * momentum * x)
    return (psi / jnp.linalg.norm(psi)).astype(jnp.complex64)


def init_state(psi0):
    return WaveState(
        psi=psi0,
        psi0=psi0,
        time=jnp.zeros((), jnp.float32),
        autocorr=jnp.zeros((), jnp.complex64),
    )


def advance(unitary, state, dt):
    psi = unitary @ state.psi
    overlap = jnp.vdot(state.psi0, psi)
    return WaveState(
        psi=psi,
        psi0=state.psi0,
        time=state.time + dt,
        autocorr=state.autocorr + dt * overlap,
    )
