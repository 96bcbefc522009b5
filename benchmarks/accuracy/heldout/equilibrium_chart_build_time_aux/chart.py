"""Radial spline chart for a 1D fixed-boundary equilibrium solve.

The chart maps the normalised flux label s in [0, 1] onto a set of hat-function
knots. Knot positions are packed towards the edge, where the pressure gradient
is steepest, so a fresh chart is built for every pressure profile.
"""

import time

import jax
import jax.numpy as jnp
import numpy as np


class RadialChart:
    def __init__(self, knots, weights, n_modes, built_at):
        self.knots = knots  # (n_knots,) knot positions in s
        self.weights = weights  # (n_knots,) quadrature weights
        self.n_modes = n_modes  # poloidal resolution the chart was sized for
        self.built_at = built_at  # provenance, shown in the solver log

    def basis(self, s):
        """Hat functions on the (non-uniform) knots, evaluated at s: (len(s), n_knots)."""
        left = jnp.concatenate([self.knots[:1] - 1e-3, self.knots[:-1]])
        right = jnp.concatenate([self.knots[1:], self.knots[-1:] + 1e-3])
        rise = (s[:, None] - left[None, :]) / (self.knots - left)[None, :]
        fall = (right[None, :] - s[:, None]) / (right - self.knots)[None, :]
        return jnp.clip(jnp.minimum(rise, fall), 0.0, 1.0)

    def age(self):
        return time.perf_counter() - self.built_at

    def tree_flatten(self):
        return (self.knots, self.weights), (self.n_modes, self.built_at)  # expect: RTL403

    @classmethod
    def tree_unflatten(cls, aux, children):
        n_modes, built_at = aux
        return cls(*children, n_modes=n_modes, built_at=built_at)


jax.tree_util.register_pytree_node(
    RadialChart, RadialChart.tree_flatten, RadialChart.tree_unflatten
)


def build_chart(n_knots, n_modes, peaking):
    """Pack knots towards s=1 more strongly for more peaked pressure profiles."""
    u = np.linspace(0.0, 1.0, n_knots)
    packing = 1.0 + 0.5 * peaking
    s_knots = 1.0 - (1.0 - u) ** packing
    weights = np.gradient(s_knots)
    return RadialChart(
        jnp.asarray(s_knots, dtype=jnp.float32),
        jnp.asarray(weights, dtype=jnp.float32),
        n_modes=n_modes,
        built_at=time.perf_counter(),  # expect: RTL403
    )
