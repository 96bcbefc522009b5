"""Quaternion helpers in the style of transformations.py, ported to jax.numpy (w, x, y, z order).

Every result is built in double precision, as the original NumPy module does.
"""

import jax.numpy as jnp

_EPS = 1e-12


def quaternion_about_axis(angle, axis):
    axis = jnp.asarray(axis)
    norm = jnp.sqrt(jnp.sum(axis * axis)) + _EPS
    half = angle / 2.0
    xyz = axis * (jnp.sin(half) / norm)
    return jnp.array([jnp.cos(half), xyz[0], xyz[1], xyz[2]], dtype=jnp.float64)  # expect: RTL402


def quaternion_multiply(q1, q0):
    w0, x0, y0, z0 = q0[0], q0[1], q0[2], q0[3]
    w1, x1, y1, z1 = q1[0], q1[1], q1[2], q1[3]
    return jnp.array(
        [
            -x1 * x0 - y1 * y0 - z1 * z0 + w1 * w0,
            x1 * w0 + y1 * z0 - z1 * y0 + w1 * x0,
            -x1 * z0 + y1 * w0 + z1 * x0 + w1 * y0,
            x1 * y0 - y1 * x0 + z1 * w0 + w1 * z0,
        ],
        dtype=jnp.float64,  # expect: RTL402
    )


def unit_vector(v):
    return v / jnp.sqrt(jnp.sum(v * v))
