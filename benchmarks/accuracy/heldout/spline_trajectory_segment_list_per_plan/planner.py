"""Cubic Hermite segments between joint-space waypoints for a 3-joint arm."""
import numpy as np
import jax.numpy as jnp

HERMITE = np.array(
    [[1.0, 0.0, 0.0, 0.0],
     [0.0, 1.0, 0.0, 0.0],
     [-3.0, -2.0, 3.0, -1.0],
     [2.0, 1.0, -2.0, 1.0]],
    dtype=np.float32,
)


def finite_difference_velocities(waypoints, durations):
    vel = np.zeros_like(waypoints)
    for k in range(1, len(waypoints) - 1):
        vel[k] = (waypoints[k + 1] - waypoints[k - 1]) / (durations[k - 1] + durations[k])
    return vel


def segment_coefficients(q0, v0, q1, v1, dt):
    boundary = np.stack([q0, v0 * dt, q1, v1 * dt])  # (4, n_joints)
    return HERMITE @ boundary


def build_segments(waypoints, durations):
    """One segment dict per pair of consecutive waypoints."""
    waypoints = np.asarray(waypoints, dtype=np.float32)
    durations = np.asarray(durations, dtype=np.float32)
    vel = finite_difference_velocities(waypoints, durations)
    segments = []
    t0 = 0.0
    for k in range(len(waypoints) - 1):
        coeffs = segment_coefficients(waypoints[k], vel[k], waypoints[k + 1], vel[k + 1], durations[k])
        segments.append({  # expect: RTL102
            "coeffs": jnp.asarray(coeffs),
            "t0": jnp.float32(t0),
            "dt": jnp.float32(durations[k]),
        })
        t0 += float(durations[k])
    return segments, t0
