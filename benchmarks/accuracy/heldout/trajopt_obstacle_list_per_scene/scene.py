"""Scene handling for the arm planner: which obstacles matter for one planning query."""

import numpy as np
import jax.numpy as jnp


def _distance_to_segment(point, a, b):
    ab = b - a
    t = np.clip(np.dot(point - a, ab) / np.dot(ab, ab), 0.0, 1.0)
    return float(np.linalg.norm(point - (a + t * ab)))


class Scene:
    """A tabletop workspace with spherical obstacles (centre xyz, radius)."""

    def __init__(self, name, spheres):
        self.name = name
        self.spheres = [(np.asarray(c, dtype=np.float32), float(r)) for c, r in spheres]

    def relevant_obstacles(self, start, goal, margin=0.15):
        """Only the spheres close to the straight start->goal line can be hit, so the
        planner only gets those: fewer collision terms, faster solves."""
        kept = []
        for centre, radius in self.spheres:
            if _distance_to_segment(centre, start, goal) < radius + margin:
                kept.append(jnp.asarray(np.append(centre, radius), dtype=jnp.float32))  # expect: RTL102
        return kept


def tabletop_scenes():
    return [
        Scene("shelf", [((0.4, 0.1, 0.3), 0.08), ((0.2, -0.3, 0.2), 0.05), ((0.6, 0.0, 0.35), 0.06)]),
        Scene("bin", [((0.35, 0.05, 0.25), 0.07), ((0.5, 0.05, 0.35), 0.05), ((0.25, 0.0, 0.22), 0.04)]),
        Scene("clutter", [((0.3, 0.05, 0.27), 0.06), ((0.0, 0.5, 0.1), 0.05)]),
        Scene("shelf_moved", [((0.45, 0.05, 0.32), 0.08), ((0.55, -0.02, 0.36), 0.06), ((0.9, 0.9, 0.9), 0.05)]),
    ]
