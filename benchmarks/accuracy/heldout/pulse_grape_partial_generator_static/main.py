"""GRAPE-style calibration of a Gaussian + DRAG pulse that implements an X gate."""

from functools import partial

import jax
import jax.numpy as jnp

from hamiltonians import DriveHamiltonian

N_SLICES = 40


def _rk4_propagate(generator, params, duration, psi0):
    dt = duration / N_SLICES

    def rhs(t, psi):
        return -1j * (generator(params, t) @ psi)

    def slice_step(i, psi):
        t = i * dt
        k1 = rhs(t, psi)
        k2 = rhs(t + 0.5 * dt, psi + 0.5 * dt * k1)
        k3 = rhs(t + 0.5 * dt, psi + 0.5 * dt * k2)
        k4 = rhs(t + dt, psi + dt * k3)
        return psi + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)

    return jax.lax.fori_loop(0, N_SLICES, slice_step, psi0)


@partial(jax.jit, static_argnums=0)
def infidelity_and_grad(generator, params, duration, psi0, target):
    def infidelity(p):
        psi = _rk4_propagate(generator, p, duration, psi0)
        return 1.0 - jnp.abs(jnp.vdot(target, psi)) ** 2

    return jax.value_and_grad(infidelity)(params)


class PulseCalibrator:
    def __init__(self, hamiltonian, learning_rate=0.01):
        self.hamiltonian = hamiltonian
        self.learning_rate = learning_rate
        self.psi0 = jnp.array([1.0, 0.0], dtype=jnp.complex64)
        self.target = jnp.array([0.0, 1.0], dtype=jnp.complex64)
        self.history = []

    def step(self, params):
        loss, grad = infidelity_and_grad(  # expect: RTL204
            self.hamiltonian.generator(),
            params,
            self.hamiltonian.duration,
            self.psi0,
            self.target,
        )
        self.history.append(float(loss))
        return params - self.learning_rate * grad

    def run(self, params, n_iters):
        for _ in range(n_iters):
            params = self.step(params)
        return params


def main():
    qubit = DriveHamiltonian(duration=20.0, width=4.0, detuning=0.01)
    calibrator = PulseCalibrator(qubit)
    params = jnp.array([0.25, 0.0], dtype=jnp.float32)  # amplitude, DRAG beta
    params = calibrator.run(params, n_iters=4)
    print("infidelity per iteration:", [round(v, 4) for v in calibrator.history])
    print("calibrated amplitude, beta:", params)


if __name__ == "__main__":
    main()
