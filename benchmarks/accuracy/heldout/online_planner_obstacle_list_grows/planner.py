"""Reaching planner for a 3-link planar arm that avoids the obstacles seen so far."""

import jax
import jax.numpy as jnp

from collision import world_collision_cost

LINK_LENGTHS = jnp.array([0.5, 0.4, 0.3], dtype=jnp.float32)


def link_points(q, samples=4):
    """Points sampled along each link, and the end-effector position."""
    angles = jnp.cumsum(q)
    offsets = LINK_LENGTHS[:, None] * jnp.stack([jnp.cos(angles), jnp.sin(angles)], axis=-1)
    joints = jnp.concatenate([jnp.zeros((1, 2)), jnp.cumsum(offsets, axis=0)])
    t = jnp.linspace(0.0, 1.0, samples)[:, None, None]
    points = joints[:-1] + t * (joints[1:] - joints[:-1])
    return points.reshape(-1, 2), joints[-1]


def planning_cost(q, q_prev, target, world, weights):
    points, end_effector = link_points(q)
    reach = jnp.sum((end_effector - target) ** 2)
    collision = world_collision_cost(points, world)
    smooth = jnp.sum((q - q_prev) ** 2)
    return weights["reach"] * reach + weights["collision"] * collision + weights["smooth"] * smooth


@jax.jit
def solve_step(q_prev, target, world, weights):
    """A fixed number of gradient steps from the previous solution (warm start)."""
    grad_fn = jax.grad(planning_cost)

    def descend(_, q):
        return q - 0.1 * grad_fn(q, q_prev, target, world, weights)

    q = jax.lax.fori_loop(0, 30, descend, q_prev)
    return q, planning_cost(q, q_prev, target, world, weights)


class OnlinePlanner:
    def __init__(self, q0, weights):
        self.q = q0
        self.weights = weights
        self.world = []  # obstacles reported by perception so far

    def add_obstacle(self, sphere):
        self.world.append(sphere)  # expect: RTL102

    def replan(self, target):
        self.q, cost = solve_step(self.q, target, self.world, self.weights)
        return cost
