"""Run the greedy planner for a few steps."""

import jax.numpy as jnp

from planner import GreedyPlanner


def main():
    planner = GreedyPlanner(robot=jnp.array([1.0, 2.0, 3.0]), goal=jnp.float32(10.0))
    conf = jnp.float32(0.0)
    trajectory = []
    for _ in range(6):
        conf = planner.step(conf)
        trajectory.append(float(conf))
    print("configurations:", trajectory)


if __name__ == "__main__":
    main()
