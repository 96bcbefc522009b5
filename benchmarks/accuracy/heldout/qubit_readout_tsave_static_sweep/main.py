"""Dispersive-readout study: how the measured excited-state population of a driven
qubit depends on the readout window. The save times are handed to the solver as a
hashable tuple so the jitted propagator can be marked static on them."""

from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

SIGMA_X = jnp.array([[0.0, 1.0], [1.0, 0.0]], dtype=jnp.complex64)
SIGMA_Z = jnp.array([[1.0, 0.0], [0.0, -1.0]], dtype=jnp.complex64)


@dataclass(frozen=True)
class Transmon:
    detuning: float = 0.35
    rabi: float = 1.2

    def hamiltonian(self):
        return 0.5 * self.detuning * SIGMA_Z + 0.5 * self.rabi * SIGMA_X


@partial(jax.jit, static_argnames=("tsave",))
def sesolve(H, psi0, tsave):
    # the save grid is static, so it is folded into the program as a constant
    times = jnp.asarray(np.asarray(tsave), dtype=jnp.float32)
    energies, basis = jnp.linalg.eigh(H)
    amplitudes = basis.conj().T @ psi0
    phases = jnp.exp(-1j * jnp.outer(times, energies))
    return (phases * amplitudes) @ basis.T


def make_tsave(window, n_save=8):
    # tuples are hashable, arrays are not: convert before calling the solver
    return tuple(float(t) for t in np.linspace(window / n_save, window, n_save))


class ReadoutChain:
    def __init__(self, qubit, psi0):
        self.qubit = qubit
        self.psi0 = psi0

    def excited_population(self, tsave):
        states = sesolve(self.qubit.hamiltonian(), self.psi0, tsave=tsave)  # expect: RTL201
        return jnp.abs(states[:, 1]) ** 2

    def integrated_signal(self, tsave):
        pops = self.excited_population(tsave)
        return float(jnp.mean(pops))


def sweep_windows(chain, windows):
    results = {}
    for window in windows:
        tsave = make_tsave(window)
        results[window] = chain.integrated_signal(tsave)  # expect: RTL201
    return results


if __name__ == "__main__":
    psi_ground = jnp.array([1.0, 0.0], dtype=jnp.complex64)
    chain = ReadoutChain(Transmon(), psi_ground)
    windows = [0.5, 1.0, 1.5, 2.0, 2.5]
    signal = sweep_windows(chain, windows)
    for window, value in signal.items():
        print(f"window {window:4.1f} us  <P_e> = {value:.4f}")
