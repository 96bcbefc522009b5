"""Sweep the onset of a rectangular drive envelope on a detuned qubit.

The envelope follows PennyLane's `qml.pulse.rect`: an amplitude that is on inside a tuple of
(start, end) windows and off elsewhere. The windows are hashable Python tuples, so they are
handed to the simulator as a static argument.
"""

from functools import partial

import jax
import jax.numpy as jnp

SX = jnp.array([[0.0, 1.0], [1.0, 0.0]], dtype=jnp.complex64)
SZ = jnp.array([[1.0, 0.0], [0.0, -1.0]], dtype=jnp.complex64)
EYE = jnp.eye(2, dtype=jnp.complex64)

T_FINAL = 4.0
N_STEPS = 48


def rect(amplitude, windows, t):
    on = jnp.zeros_like(t, dtype=bool)
    for start, end in windows:
        on = on | ((t >= start) & (t <= end))
    return jnp.where(on, amplitude, 0.0)


def _propagator(h_x, h_z, dt):
    norm = jnp.sqrt(h_x**2 + h_z**2) + 1e-12
    hamiltonian = (h_x * SX + h_z * SZ) / norm
    return jnp.cos(norm * dt) * EYE - 1j * jnp.sin(norm * dt) * hamiltonian


@partial(jax.jit, static_argnames=("windows",))
def evolve(amplitude, detuning, windows):
    dt = T_FINAL / N_STEPS
    psi0 = jnp.array([1.0, 0.0], dtype=jnp.complex64)

    def propagate(psi, t):
        u = _propagator(rect(amplitude, windows, t), 0.5 * detuning, dt)
        return u @ psi, None

    psi, _ = jax.lax.scan(propagate, psi0, jnp.arange(N_STEPS) * dt)
    return jnp.abs(psi[1]) ** 2


def echo_windows(onset: float, width: float, gap: float):
    first = (onset, onset + width)
    second = (onset + width + gap, onset + 2 * width + gap)
    return (first, second)


def excited_population(amplitude, detuning, onset, width=0.6, gap=0.4):
    windows = echo_windows(onset, width, gap)
    return evolve(amplitude, detuning, windows=windows)  # expect: RTL201


def main():
    amplitude = jnp.float32(1.3)
    detuning = jnp.float32(0.2)
    onsets = [0.0, 0.5, 1.0, 1.5, 2.0]
    for onset in onsets:
        pop = excited_population(amplitude, detuning, onset)  # expect: RTL201
        print(f"onset {onset:.1f}  P(|1>) = {float(pop):.4f}")


if __name__ == "__main__":
    main()
