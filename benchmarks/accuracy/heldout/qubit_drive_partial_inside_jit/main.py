"""Rabi calibration: sweep the pulse amplitude and record the excited-state population."""

import jax.numpy as jnp
from solver import evolve


def rabi_sweep(amplitudes, width=1.0, detuning=0.0):
    psi0 = jnp.array([1.0, 0.0], dtype=jnp.complex64)
    populations = []
    for amp in amplitudes:
        psi = evolve(psi0, amp, width, detuning)
        populations.append(float(jnp.abs(psi[1]) ** 2))
    return populations


if __name__ == "__main__":
    amps = [0.2, 0.4, 0.6, 0.8]
    for a, p in zip(amps, rabi_sweep(amps)):
        print(f"amplitude {a:.1f}: P(1) = {p:.3f}")
