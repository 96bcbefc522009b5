"""Two-body propagation of heliocentric state vectors (AU, AU/day)."""

import jax
import jax.numpy as jnp

GM_SUN = 2.9591220828559115e-04  # AU^3 / day^2


def _acceleration(pos):
    r = jnp.linalg.norm(pos, axis=-1, keepdims=True)
    return -GM_SUN * pos / r**3


@jax.jit
def propagate_2body(states, dt_days):
    """Leapfrog-integrate every orbit in `states` (N, 6) forward by dt_days."""
    n_sub = 16
    h = dt_days / n_sub

    pos, vel = states[:, :3], states[:, 3:]
    for _ in range(n_sub):
        vel = vel + 0.5 * h * _acceleration(pos)
        pos = pos + h * vel
        vel = vel + 0.5 * h * _acceleration(pos)
    return jnp.concatenate([pos, vel], axis=-1)


def radec_from_state(states, observer):
    topo = states[:, :3] - observer[None, :]
    ra = jnp.arctan2(topo[:, 1], topo[:, 0])
    dec = jnp.arcsin(topo[:, 2] / jnp.linalg.norm(topo, axis=-1))
    return ra, dec
