"""Grow a soft arm one segment at a time until it can reach a target.

Each design iteration fits the actuation pressure by gradient descent on the tip error,
and adds another segment when the best reach is still too far off.
"""

import jax
import jax.numpy as jnp

from arm import tip_error

TARGET = jnp.array([0.12, 0.30], dtype=jnp.float32)


class ArmDesign:
    def __init__(self, base_length=0.08):
        self.base_length = base_length
        self.segments = []

    def add_segment(self, taper=0.9):
        k = len(self.segments)
        seg = {
            "length": jnp.float32(self.base_length * taper**k),
            "compliance": jnp.float32(1.0 / (1.0 + 0.1 * k)),
            "rest_curvature": jnp.float32(0.2),
        }
        self.segments.append(seg)  # expect: RTL102

    @property
    def n_segments(self):
        return len(self.segments)


def fit_pressure(design, steps=3, lr=2.0):
    pressure = jnp.float32(1.0)
    grad_fn = jax.grad(lambda p: tip_error(design.segments, p, TARGET))
    for _ in range(steps):
        pressure = pressure - lr * grad_fn(pressure)
    return pressure, float(tip_error(design.segments, pressure, TARGET))


def grow_until_reach(design, tol=0.01, max_iters=4):
    history = []
    for it in range(max_iters):
        pressure, err = fit_pressure(design)
        history.append((design.n_segments, err))
        print(f"iter {it}: {design.n_segments} segments, p={float(pressure):.3f}, tip error {err:.4f}")
        if err < tol:
            break
        design.add_segment()
    return history


if __name__ == "__main__":
    design = ArmDesign()
    design.add_segment()
    design.add_segment()
    history = grow_until_reach(design)
    print("final segment count:", history[-1][0])
