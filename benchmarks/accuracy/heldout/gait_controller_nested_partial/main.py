"""Simulate a two-link leg walking through stance and swing phases.

Each gait phase gets its own PD gains and joint setpoint; the controller for the
phase is handed to a jitted rollout as a pytree argument.
"""

import jax
import jax.numpy as jnp

from controllers import GaitPhase, controller_for

DT = 0.01
HORIZON = 25
INERTIA = jnp.array([0.30, 0.12], jnp.float32)
DAMPING = jnp.array([0.05, 0.03], jnp.float32)
GRAVITY_LOAD = jnp.array([2.0, 0.8], jnp.float32)

GAIT = (
    GaitPhase("stance", kp=(60.0, 45.0), kd=(4.0, 3.0), target=(0.15, -0.30)),
    GaitPhase("swing", kp=(25.0, 20.0), kd=(1.5, 1.0), target=(-0.35, -0.90)),
)


@jax.jit
def rollout(policy, q0, qd0):
    def step(carry, _):
        q, qd = carry
        tau = policy(q, qd)
        qdd = (tau - DAMPING * qd - GRAVITY_LOAD * jnp.sin(q)) / INERTIA
        qd = qd + DT * qdd
        q = q + DT * qd
        return (q, qd), q

    (q, qd), trajectory = jax.lax.scan(step, (q0, qd0), None, length=HORIZON)
    return q, qd, trajectory


def tracking_error(trajectory, target):
    return float(jnp.mean(jnp.abs(trajectory[-5:] - jnp.asarray(target))))


class LegSimulator:
    def __init__(self, gait):
        self.gait = gait
        self.q = jnp.zeros(2, jnp.float32)
        self.qd = jnp.zeros(2, jnp.float32)

    def run_phase(self, phase):
        policy = controller_for(phase)
        self.q, self.qd, trajectory = rollout(policy, self.q, self.qd)
        return tracking_error(trajectory, phase.target)

    def walk(self, cycles):
        log = []
        for cycle in range(cycles):
            for phase in self.gait:
                log.append((cycle, phase.name, self.run_phase(phase)))
        return log


def main():
    sim = LegSimulator(GAIT)
    for cycle, name, err in sim.walk(cycles=2):
        print(f"cycle {cycle} {name:7s} tracking error {err:.4f} rad")


if __name__ == "__main__":
    main()
