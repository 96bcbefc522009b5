"""An adaptive Heun-Euler integrator whose tolerances are traced, not static."""

import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class AdaptiveSolver:
    def __init__(self, rtol, atol, safety=0.9, max_steps=20000):
        self.rtol = rtol
        self.atol = atol
        self.safety = safety
        self.max_steps = max_steps

    def tree_flatten(self):
        return (self.rtol, self.atol, self.safety), (self.max_steps,)

    @classmethod
    def tree_unflatten(cls, aux, children):
        rtol, atol, safety = children
        (max_steps,) = aux
        return cls(rtol, atol, safety, max_steps)

    def error_ratio(self, y_new, err):
        scale = self.atol + self.rtol * jnp.abs(y_new)
        return jnp.sqrt(jnp.mean((err / scale) ** 2))

    @jax.jit
    def solve(self, rhs_params, y0, t1):
        def heun_euler_step(carry):
            t, y, dt, n = carry
            dt = jnp.minimum(dt, t1 - t)
            k1 = vector_field(y, rhs_params)
            k2 = vector_field(y + dt * k1, rhs_params)
            y_new = y + 0.5 * dt * (k1 + k2)
            ratio = self.error_ratio(y_new, 0.5 * dt * (k2 - k1))
            accept = ratio <= 1.0
            factor = jnp.clip(self.safety * ratio ** -0.5, 0.2, 5.0)
            t = jnp.where(accept, t + dt, t)
            y = jnp.where(accept, y_new, y)
            return t, y, dt * factor, n + 1

        def before_t_end(carry):
            t, _, _, n = carry
            return (t < t1) & (n < self.max_steps)

        init = (jnp.asarray(0.0), y0, jnp.asarray(1e-2), jnp.asarray(0))
        _, y, _, n = jax.lax.while_loop(before_t_end, heun_euler_step, init)
        return y, n


def vector_field(y, p):
    # chemostat: substrate s, biomass x with Monod growth
    s, x = y[0], y[1]
    growth = p["mu_max"] * s / (p["k_s"] + s)
    ds = p["dilution"] * (p["s_in"] - s) - growth * x / p["yield_"]
    dx = (growth - p["dilution"]) * x
    return jnp.stack([ds, dx])
