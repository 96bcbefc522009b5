"""Low-Earth-orbit point-mass dynamics with exponential-atmosphere drag."""

import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class

MU_EARTH = 398600.4418  # km^3 / s^2
R_EARTH = 6378.137  # km


@register_pytree_node_class
class DragModel:
    """Ballistic drag model; the density profile parameters are fixed per mission."""

    def __init__(self, cd_area_over_mass, rho0=1.0e-5, h0=400.0, scale_height=58.5):
        self.cd_area_over_mass = cd_area_over_mass  # m^2/kg, times C_D
        self.rho0 = rho0  # kg/km^3 at h0 (toy units, inflated)
        self.h0 = h0
        self.scale_height = scale_height

    def tree_flatten(self):
        children = ()
        aux = (self.cd_area_over_mass, self.rho0, self.h0, self.scale_height)  # expect: RTL202
        return children, aux

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*aux)

    def acceleration(self, r, v):
        h = jnp.linalg.norm(r) - R_EARTH
        rho = self.rho0 * jnp.exp(-(h - self.h0) / self.scale_height)
        return -0.5 * self.cd_area_over_mass * rho * jnp.linalg.norm(v) * v


def _rhs(state, drag):
    r, v = state[:3], state[3:]
    a_grav = -MU_EARTH * r / jnp.linalg.norm(r) ** 3
    return jnp.concatenate([v, a_grav + drag.acceleration(r, v)])


@jax.jit
def propagate(state, drag, dt):
    """RK4 over a fixed number of steps; returns the state after each step."""

    def rk4_step(s, _):
        k1 = _rhs(s, drag)
        k2 = _rhs(s + 0.5 * dt * k1, drag)
        k3 = _rhs(s + 0.5 * dt * k2, drag)
        k4 = _rhs(s + dt * k3, drag)
        s = s + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        return s, s

    _, states = jax.lax.scan(rk4_step, state, None, length=40)
    return states
