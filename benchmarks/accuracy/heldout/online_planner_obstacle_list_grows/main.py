"""Online reaching with a planar arm while the depth camera keeps reporting new obstacles.

Every control frame the planner warm-starts from the last joint configuration and re-solves
for a moving target; when perception finds another obstacle it is added to the world.
"""

import numpy as np
import jax.numpy as jnp

from collision import Sphere
from planner import OnlinePlanner

# frame -> obstacles (centre, radius) that perception reports for the first time at that frame
DETECTIONS = {
    0: [((0.6, 0.3), 0.10), ((0.2, 0.7), 0.12)],
    2: [((0.8, -0.1), 0.08)],
    4: [((0.4, 0.5), 0.10)],
}


def target_at(frame):
    angle = 0.3 + 0.15 * frame
    return jnp.array([0.9 * np.cos(angle), 0.9 * np.sin(angle)], dtype=jnp.float32)


def new_obstacles(frame):
    return [Sphere.from_detection(center, radius) for center, radius in DETECTIONS.get(frame, [])]


def run(frames=6):
    weights = {"reach": 1.0, "collision": 10.0, "smooth": 0.1}
    planner = OnlinePlanner(q0=jnp.array([0.2, 0.3, 0.1], dtype=jnp.float32), weights=weights)
    for frame in range(frames):
        for sphere in new_obstacles(frame):
            planner.add_obstacle(sphere)
        cost = planner.replan(target_at(frame))
        print(f"frame {frame}: {len(planner.world)} obstacles, cost {float(cost):.4f}")
    return planner.q


if __name__ == "__main__":
    run()
