"""Roll out a PD-controlled walker gait, the way the MJX tutorial rolls out a humanoid."""

import jax
import jax.numpy as jnp

import sim

N_JOINTS = 6
N_STEPS = 5


@jax.jit
def gait_controller(gains, qpos, qvel, target):
    kp, kd = gains
    return kp * (target - qpos) - kd * qvel


def gait_target(phase: jax.Array) -> jax.Array:
    offsets = jnp.linspace(0.0, jnp.pi, N_JOINTS, dtype=jnp.float32)
    return 0.3 * jnp.sin(phase + offsets)


def rollout(model: sim.Model, data: sim.Data, gains, n_steps: int):
    trajectory = []
    for i in range(n_steps):
        phase = jnp.asarray(0.5 * i, dtype=jnp.float32)
        ctrl = gait_controller(gains, data.qpos, data.qvel, gait_target(phase))
        data = sim.step(model, data._replace(ctrl=ctrl))
        trajectory.append(data.qpos)
    return data, jnp.stack(trajectory)


def main():
    model = sim.make_model(N_JOINTS)
    data = sim.make_data(model, jnp.linspace(-0.1, 0.1, N_JOINTS))
    gains = (jnp.float32(12.0), jnp.float32(0.6))
    data, traj = rollout(model, data, gains, N_STEPS)
    print("sim time", float(data.time), "final pose", traj[-1])


if __name__ == "__main__":
    main()
