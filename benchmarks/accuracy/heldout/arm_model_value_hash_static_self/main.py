"""Gravity-compensated PD reaching with a planar arm, one fresh model per episode.

Each episode reloads the arm from its spec (as a robot driver would after a
reconnect); the controller compensates gravity with the nominal model while the
simulated plant carries that episode's payload, and the planner gets its own copy
of the model to check reachability with the same jitted kinematics.
"""

import copy

import jax.numpy as jnp

from arm_model import ArmModel

ARM_SPEC = {
    "name": "planar3",
    "links": [
        {"name": "shoulder", "length": 0.40, "mass": 2.0},
        {"name": "elbow", "length": 0.30, "mass": 1.2},
        {"name": "wrist", "length": 0.15, "mass": 0.5},
    ],
}

KP = jnp.array([40.0, 30.0, 10.0], dtype=jnp.float32)
KD = jnp.array([6.0, 4.0, 1.5], dtype=jnp.float32)
INERTIA = jnp.array([0.9, 0.4, 0.05], dtype=jnp.float32)
DT = 0.02


class ReachPlanner:
    def __init__(self, model):
        self.model = model

    def reachable(self, q_goal, target_xy, tol=0.05):
        tip = self.model.forward_kinematics(q_goal)[-1]
        return float(jnp.linalg.norm(tip - target_xy)) < tol


def run_episode(controller_model, plant_model, q_goal, steps=5):
    """PD + gravity compensation from the controller's model; the plant carries the real payload."""
    q = jnp.zeros(3, dtype=jnp.float32)
    qd = jnp.zeros(3, dtype=jnp.float32)
    for _ in range(steps):
        tau = KP * (q_goal - q) - KD * qd + controller_model.gravity_torques(q)
        qdd = (tau - plant_model.gravity_torques(q)) / INERTIA
        qd = qd + DT * qdd
        q = q + DT * qd
    return q, plant_model.forward_kinematics(q)[-1]


def main():
    q_goal = jnp.array([0.6, -0.4, 0.2], dtype=jnp.float32)
    for episode, payload in enumerate([0.0, 0.25, 0.5]):
        nominal = ArmModel.from_spec(ARM_SPEC)
        plant = nominal.with_payload(payload)
        planner = ReachPlanner(copy.deepcopy(nominal))
        target = plant.forward_kinematics(q_goal)[-1]
        ok = planner.reachable(q_goal, target)
        q, tip = run_episode(nominal, plant, q_goal)
        print(f"episode {episode} payload={payload:.2f} kg reachable={ok} "
              f"tip=({float(tip[0]):+.3f}, {float(tip[1]):+.3f}) q={q.round(3).tolist()}")


if __name__ == "__main__":
    main()
