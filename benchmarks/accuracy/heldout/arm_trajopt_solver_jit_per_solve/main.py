"""Plan joint trajectories through a sequence of tool waypoints for a 3-link arm."""

import jax.numpy as jnp

from arm import PlanarArm, end_effector
from solver import AugmentedLagrangianSolver


def solve_ik(arm, q_start, goal, n_waypoints=8):
    solver = AugmentedLagrangianSolver(arm.fk_data(), arm.joint_limits, n_waypoints)
    return solver.solve(q_start, goal)


def main():
    arm = PlanarArm(
        link_lengths=[0.40, 0.30, 0.20],
        joint_limits=[[-2.6, 2.6], [-2.0, 2.0], [-1.8, 1.8]],
        base_xy=(0.0, 0.1),
    )
    waypoints = jnp.array(
        [[0.55, 0.35], [0.30, 0.60], [-0.20, 0.55], [-0.45, 0.25]], dtype=jnp.float32
    )
    q = jnp.array([0.1, 0.3, -0.2], dtype=jnp.float32)
    fk = arm.fk_data()
    for goal in waypoints:
        traj = solve_ik(arm, q, goal)
        q = traj[-1]
        err = float(jnp.linalg.norm(end_effector(fk, q) - goal))
        print(f"goal {goal.tolist()} reached with error {err:.4f} m")


if __name__ == "__main__":
    main()
