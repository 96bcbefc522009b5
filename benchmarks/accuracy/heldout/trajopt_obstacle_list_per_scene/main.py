"""Collision-aware trajectory optimisation for an end effector, re-planned for a series of
tabletop scenes with the same robot but different obstacle placements."""

import jax
import jax.numpy as jnp
import numpy as np

from scene import tabletop_scenes

TIMESTEPS = 16
SMOOTH_WEIGHT = 1.0
GOAL_WEIGHT = 20.0
COLLISION_WEIGHT = 50.0


def trajectory_cost(waypoints, start, goal, obstacles):
    vel = waypoints[1:] - waypoints[:-1]
    acc = vel[1:] - vel[:-1]
    cost = SMOOTH_WEIGHT * jnp.sum(acc ** 2) + jnp.sum(vel ** 2)
    cost += GOAL_WEIGHT * (jnp.sum((waypoints[0] - start) ** 2) + jnp.sum((waypoints[-1] - goal) ** 2))
    for sphere in obstacles:
        dist = jnp.linalg.norm(waypoints - sphere[:3], axis=-1) - sphere[3]
        cost += COLLISION_WEIGHT * jnp.sum(jax.nn.relu(0.05 - dist) ** 2)
    return cost


@jax.jit
def solve_trajopt(init_waypoints, start, goal, obstacles):
    grad_fn = jax.grad(trajectory_cost)

    def descent_step(_, wp):
        return wp - 0.02 * grad_fn(wp, start, goal, obstacles)

    waypoints = jax.lax.fori_loop(0, 60, descent_step, init_waypoints)
    return waypoints, trajectory_cost(waypoints, start, goal, obstacles)


def straight_line(start, goal):
    alphas = np.linspace(0.0, 1.0, TIMESTEPS, dtype=np.float32)[:, None]
    return jnp.asarray(start + alphas * (goal - start))


class Planner:
    def __init__(self, start, goal):
        self.start = np.asarray(start, dtype=np.float32)
        self.goal = np.asarray(goal, dtype=np.float32)

    def plan(self, scene):
        obstacles = scene.relevant_obstacles(self.start, self.goal)
        init = straight_line(self.start, self.goal)
        waypoints, cost = solve_trajopt(init, jnp.asarray(self.start), jnp.asarray(self.goal), obstacles)
        return waypoints, float(cost), len(obstacles)


def main():
    planner = Planner(start=(0.1, 0.0, 0.2), goal=(0.7, 0.05, 0.4))
    for scene in tabletop_scenes():
        waypoints, cost, n_obs = planner.plan(scene)
        print(f"{scene.name:12s} obstacles={n_obs} cost={cost:.4f} mid={np.round(np.asarray(waypoints[TIMESTEPS // 2]), 3)}")


if __name__ == "__main__":
    main()
