"""A two-body orbit propagator that travels through jit as a pytree."""

import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class

MU_EARTH = 398600.4418  # km^3 / s^2


@register_pytree_node_class
class KeplerPropagator:
    """Fixed-step RK4 over a window; state and mu are leaves, the step size is configuration."""

    def __init__(self, mu, dt, n_steps):
        self.mu = mu
        self.dt = dt
        self.n_steps = n_steps

    def tree_flatten(self):
        children = (self.mu,)
        aux = (self.dt, self.n_steps)  # expect: RTL202
        return children, aux

    @classmethod
    def tree_unflatten(cls, aux, children):
        dt, n_steps = aux
        return cls(children[0], dt, n_steps)

    def accel(self, r):
        return -self.mu * r / jnp.linalg.norm(r) ** 3

    def rhs(self, s):
        return jnp.concatenate([s[3:], self.accel(s[:3])])

    def rk4(self, s):
        h = self.dt
        k1 = self.rhs(s)
        k2 = self.rhs(s + 0.5 * h * k1)
        k3 = self.rhs(s + 0.5 * h * k2)
        k4 = self.rhs(s + h * k3)
        return s + h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)

    def with_step(self, dt):
        return KeplerPropagator(self.mu, dt, self.n_steps)


@jax.jit
def propagate_window(prop, state):
    def advance(s, _):
        s = prop.rk4(s)
        return s, s[:3]

    final, track = jax.lax.scan(advance, state, None, length=prop.n_steps)
    return final, track
