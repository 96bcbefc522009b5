"""Sweep the drive amplitude of a two-level system and record the final excited population."""

import jax
import jax.numpy as jnp
from timearray import modulated

SIGMA_X = jnp.array([[0.0, 1.0], [1.0, 0.0]], jnp.complex64)


@jax.jit
def evolve(hamiltonian, psi0, ts):
    def step(psi, t):
        dt = ts[1] - ts[0]
        return psi - 1j * dt * (hamiltonian(t) @ psi), None

    psi, _ = jax.lax.scan(step, psi0, ts[:-1])
    return jnp.abs(psi[1]) ** 2


def drive(amplitude, omega=1.0):
    return modulated(lambda t: amplitude * jnp.cos(omega * t), SIGMA_X)  # expect: RTL204


def amplitude_sweep(amplitudes):
    psi0 = jnp.array([1.0, 0.0], jnp.complex64)
    ts = jnp.linspace(0.0, 3.0, 31)
    return [float(evolve(drive(a), psi0, ts)) for a in amplitudes]


if __name__ == "__main__":
    print(amplitude_sweep([0.1, 0.2, 0.3]))
