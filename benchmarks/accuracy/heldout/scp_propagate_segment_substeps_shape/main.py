"""Successive-convexification style defect check for a powered-descent trajectory.

Each SCP iteration re-estimates the node times (the time-dilation variables
move), then propagates the nonlinear dynamics between consecutive nodes to
measure the defects that the next convex subproblem has to close.
"""
import math

import numpy as np
import jax.numpy as jnp

from dynamics import propagate_segment

DT_MAX = 0.5  # longest integration sub-step, s


def segment_times(duration, dt_max=DT_MAX):
    n_sub = max(1, math.ceil(duration / dt_max))
    return jnp.linspace(0.0, duration, n_sub + 1)  # expect: RTL105


def defects(X, U, node_dt):
    out = []
    for k in range(len(node_dt)):
        t_sub = segment_times(float(node_dt[k]))
        x_next = propagate_segment(X[k], U[k], U[k + 1], t_sub)
        out.append(float(jnp.linalg.norm(x_next - X[k + 1])))
    return np.array(out)


def initial_guess(n_nodes, t_final):
    r0 = np.array([200.0, 50.0, 1500.0])
    X = np.zeros((n_nodes, 7), dtype=np.float32)
    for k in range(n_nodes):
        s = k / (n_nodes - 1)
        X[k, :3] = (1.0 - s) * r0
        X[k, 3:6] = -r0 / t_final
        X[k, 6] = 1900.0 - 40.0 * s
    U = np.tile(np.array([0.0, 0.0, 8000.0], dtype=np.float32), (n_nodes, 1))
    return jnp.asarray(X), jnp.asarray(U)


def update_time_dilation(node_dt, defect):
    # crude trust-region step on the segment durations
    return node_dt * (1.0 + 0.15 * np.tanh(defect / (defect.mean() + 1e-6) - 1.0))


if __name__ == "__main__":
    n_nodes, t_final = 5, 6.0
    X, U = initial_guess(n_nodes, t_final)
    node_dt = np.full(n_nodes - 1, t_final / (n_nodes - 1))
    for it in range(3):
        d = defects(X, U, node_dt)
        print(f"iter {it}: max defect {d.max():9.3f}  segment durations {np.round(node_dt, 3)}")
        node_dt = update_time_dilation(node_dt, d)
