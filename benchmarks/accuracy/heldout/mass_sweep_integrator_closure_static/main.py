"""Payload sweep: how far does the arm swing under the same torque pulse as the payload grows?

Every payload gives a model with the same structure; each one is simulated for a few steps with
the jitted `step` and the final joint angle and energy are reported.
"""

import jax.numpy as jnp
import numpy as np

from dynamics import ArmModel, ArmState, SemiImplicitEuler, step, wrap_system_dynamics_for_integration

PAYLOADS_KG = [0.5, 1.0, 1.5, 2.0]
DT = 0.01
N_STEPS = 5


def make_model(payload_kg):
    return ArmModel(
        link_mass=jnp.float32(1.2),
        payload_mass=jnp.float32(payload_kg),
        length=jnp.float32(0.6),
        damping=jnp.float32(0.05),
    )


def torque_pulse(n_steps, peak=4.0):
    return jnp.asarray(peak * np.hanning(n_steps + 2)[1:-1], dtype=jnp.float32)


def rollout(model, integrator, state, torques):
    energies = []
    for tau in torques:
        state, energy = step(model, state, tau, integrator=integrator)
        energies.append(float(energy))
    return state, energies


def main():
    torques = torque_pulse(N_STEPS)
    results = {}
    for payload in PAYLOADS_KG:
        model = make_model(payload)
        integrator = SemiImplicitEuler.build(wrap_system_dynamics_for_integration(model), dt=DT)  # expect: RTL204
        state0 = ArmState(q=jnp.float32(0.0), qd=jnp.float32(0.0))
        final, energies = rollout(model, integrator, state0, torques)  # expect: RTL204
        results[payload] = (float(final.q), energies[-1])
    for payload, (q, e) in results.items():
        print(f"payload {payload:.1f} kg: q = {q:+.5f} rad, E = {e:+.3f} J")


if __name__ == "__main__":
    main()
