"""Transient simulation of a half-wave rectifier with backward Euler and Newton-Raphson."""

from functools import partial

import jax
import jax.numpy as jnp

from devices import Circuit


@partial(jax.jit, static_argnames=("device_eval", "iters"))
def newton_solve(v_prev, i_src, dt, G, C, device_eval, iters=8):
    def residual(v):
        return C * (v - v_prev) / dt + G @ v + device_eval(v) - i_src

    v = v_prev
    for _ in range(iters):  # a fixed number of Newton iterations, unrolled
        r = residual(v)
        J = jax.jacfwd(residual)(v)
        v = v - jnp.linalg.solve(J, r)
    return v


def sine_source(t, amplitude=2.0, freq=50.0, r_source=1e3):
    # Norton equivalent of a sine voltage source behind the source resistor.
    return jnp.array([amplitude * jnp.sin(2 * jnp.pi * freq * t) / r_source, 0.0], dtype=jnp.float32)


class TransientSim:
    def __init__(self, circuit, dt):
        self.circuit = circuit
        self.dt = dt
        self.G = jnp.asarray(circuit.conductance())
        self.C = jnp.asarray(circuit.capacitance())

    def step(self, v, t):
        i_src = sine_source(t, r_source=self.circuit.r_source)
        return newton_solve(v, i_src, self.dt, self.G, self.C, device_eval=self.circuit.device_model())  # expect: RTL204

    def run(self, n_steps):
        v = jnp.zeros(2, dtype=jnp.float32)
        waveform = []
        for k in range(1, n_steps + 1):
            v = self.step(v, k * self.dt)
            waveform.append(float(v[1]))
        return waveform


if __name__ == "__main__":
    sim = TransientSim(Circuit(), dt=1e-3)
    out = sim.run(5)
    print("v_out:", " ".join(f"{x:.3f}" for x in out))
