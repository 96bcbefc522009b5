"""Calibration sweeps for a transmon: simulate lists of pulse schedules with one compiled solver."""

import jax
import jax.numpy as jnp
import numpy as np

from pulses import Schedule, drag, gaussian, square

DT = 0.222  # ns per sample
RABI_RATE = 0.05  # rad per sample at unit amplitude


@jax.jit
def evolve_schedules(samples, detuning):
    """Piecewise-constant evolution of |0> under each row of samples; returns P(|1>)."""

    def one(env):
        def step(psi, s):
            hx, hy, hz = RABI_RATE * s.real, RABI_RATE * s.imag, detuning
            norm = jnp.sqrt(hx**2 + hy**2 + hz**2) + 1e-12
            c, si = jnp.cos(norm / 2), jnp.sin(norm / 2) / norm
            u = jnp.array([[c - 1j * si * hz, -1j * si * (hx - 1j * hy)],
                           [-1j * si * (hx + 1j * hy), c + 1j * si * hz]])
            return u @ psi, None

        psi0 = jnp.array([1.0 + 0j, 0.0 + 0j], dtype=jnp.complex64)
        psi, _ = jax.lax.scan(step, psi0, env)
        return jnp.abs(psi[1]) ** 2

    return jax.vmap(one)(samples)


class PulseSolver:
    def __init__(self, detuning):
        self.detuning = detuning

    def _pack(self, schedules):
        # pad every schedule to the longest one of this call so the batch is rectangular
        max_len = max(s.duration for s in schedules)
        buf = np.zeros((len(schedules), max_len), dtype=np.complex64)  # expect: RTL105
        for row, s in zip(buf, schedules):
            row[: s.duration] = s.samples
        return buf

    def solve(self, schedules):
        samples = self._pack(schedules)
        pops = evolve_schedules(jnp.asarray(samples), self.detuning)
        return dict(zip((s.name for s in schedules), np.asarray(pops)))


def rabi_sweep(amps):
    return [Schedule(f"rabi_{a:.2f}", gaussian(40, a, 10.0)) for a in amps]


def drag_sweep(betas):
    return [Schedule(f"drag_{b:+.1f}", drag(56, 0.8, 14.0, b)) for b in betas]


def t1_delays(delays):
    return [Schedule(f"delay_{d}", square(16, 1.0), delay=d) for d in delays]


if __name__ == "__main__":
    solver = PulseSolver(detuning=jnp.float32(0.002))
    experiments = {
        "rabi": rabi_sweep(np.linspace(0.2, 1.0, 5)),
        "drag": drag_sweep([-2.0, 0.0, 2.0]),
        "ramsey": t1_delays([0, 8, 24]),
        "rabi_fine": rabi_sweep(np.linspace(0.9, 1.1, 5)),
    }
    for label, batch in experiments.items():
        result = solver.solve(batch)
        best = max(result, key=result.get)
        print(f"{label:10s} n={len(batch)} best={best} p1={result[best]:.3f}")
