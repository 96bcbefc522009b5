"""Track a joint-space trajectory on a two-link arm with a scheduled PID controller."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp

from controllers import init_state, make_pid_step

DT = 0.01


@dataclass(frozen=True)
class GainSchedule:
    kp: float = 40.0
    ki: float = 4.0
    kd: float = 6.0
    u_max: float = 25.0

    def gains(self, mode):
        if mode == "stiff":
            return (self.kp * 2.0, self.ki, self.kd * 1.5, DT, self.u_max)
        return (self.kp, self.ki, self.kd, DT, self.u_max)


def arm_dynamics(q, qd, torque):
    inertia = jnp.array([1.2, 0.6])
    damping = jnp.array([0.4, 0.2])
    qdd = (torque - damping * qd) / inertia
    qd = qd + DT * qdd
    return q + DT * qd, qd


plant_step = jax.jit(arm_dynamics)


def reference(t):
    return jnp.array([0.5 * jnp.sin(t), 0.3 * jnp.cos(t)])


def run_episode(schedule, mode, n_ticks=6):
    q, qd = jnp.zeros(2), jnp.zeros(2)
    state = init_state(2)
    errors = []
    for k in range(n_ticks):
        controller = make_pid_step(*schedule.gains(mode))
        error = reference(k * DT) - q
        state, torque = controller(state, error)
        q, qd = plant_step(q, qd, torque)
        errors.append(float(jnp.abs(error).max()))
    return q, errors


if __name__ == "__main__":
    schedule = GainSchedule()
    for episode in range(2):
        q, errors = run_episode(schedule, mode="nominal")
        print(episode, [round(e, 3) for e in errors], q)
