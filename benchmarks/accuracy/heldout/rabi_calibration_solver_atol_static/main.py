"""Calibrate the amplitude of a pi pulse on a slightly detuned transmon qubit.

Each calibration round simulates the pulse, reads the excited-state population
and rescales the drive amplitude. The solver tolerance is tightened every round
so the early, rough rounds are cheap and the last one is accurate.
"""
import math

import jax.numpy as jnp

from solver import Tsit5, sesolve

SIGMA_X = jnp.array([[0.0, 1.0], [1.0, 0.0]], dtype=jnp.complex64)
SIGMA_Z = jnp.array([[1.0, 0.0], [0.0, -1.0]], dtype=jnp.complex64)
GROUND = jnp.array([1.0, 0.0], dtype=jnp.complex64)

DETUNING = 2 * math.pi * 0.0004  # GHz, residual qubit-drive detuning
PULSE_NS = 40.0


def drive_hamiltonian(amp, detuning):
    return 0.5 * amp * SIGMA_X + 0.5 * detuning * SIGMA_Z


def excited_population(amp, duration, method):
    H = drive_hamiltonian(amp, DETUNING)
    tsave = jnp.linspace(0.0, duration, 9)
    states = sesolve(H, GROUND, tsave, method=method)
    return float(jnp.abs(states[-1, 1]) ** 2)


class PiPulseCalibrator:
    def __init__(self, duration, atol_start=1e-2, tighten=0.1, atol_floor=1e-8):
        self.duration = duration
        self.atol_start = atol_start
        self.tighten = tighten
        self.atol_floor = atol_floor
        self.history = []

    def update_amplitude(self, amp, population):
        # detuned Rabi model: P1 = (amp / omega)^2 sin^2(omega T / 2)
        omega = math.hypot(amp, DETUNING)
        ratio = min(max(population * (omega / amp) ** 2, 1e-6), 1.0 - 1e-7)
        rotation = 2.0 * math.asin(math.sqrt(ratio))
        omega_new = omega * math.pi / rotation
        return math.sqrt(max(omega_new**2 - DETUNING**2, 1e-12))

    def run(self, amp, rounds=4):
        atol = self.atol_start
        for r in range(rounds):
            pop = excited_population(amp, self.duration, Tsit5(atol=atol))  # expect: RTL201
            self.history.append((r, atol, amp, pop))
            amp = self.update_amplitude(amp, pop)
            atol = max(atol * self.tighten, self.atol_floor)
        return amp


if __name__ == "__main__":
    calibrator = PiPulseCalibrator(PULSE_NS)
    guess = 0.8 * math.pi / PULSE_NS
    amp = calibrator.run(guess)
    for r, atol, a, pop in calibrator.history:
        print(f"round {r}: atol={atol:.0e} amp={a:.5f} P1={pop:.4f}")
    print(f"calibrated pi-pulse amplitude: {amp:.5f} rad/ns")
