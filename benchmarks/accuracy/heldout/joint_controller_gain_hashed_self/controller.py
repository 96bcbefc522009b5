"""Joint-space impedance controller for a planar two-link arm."""

import copy
from functools import partial

import jax
import jax.numpy as jnp

GRAVITY = 9.81


class ImpedanceController:
    def __init__(self, kp, kd, link_masses, link_lengths):
        self.kp = tuple(kp)
        self.kd = tuple(kd)
        self.masses = tuple(link_masses)
        self.lengths = tuple(link_lengths)
        self.gain_scale = 1.0  # tuned online by the gain scheduler

    # self is a static argument of the jitted torque(), so hash and eq must cover every
    # attribute the trace reads, or a changed gain would silently reuse the old program
    def _key(self):
        return (self.kp, self.kd, self.masses, self.lengths, self.gain_scale)

    def __hash__(self):
        return hash(self._key())

    def __eq__(self, other):
        return isinstance(other, ImpedanceController) and self._key() == other._key()

    def retuned(self, gain_scale):
        """A copy with a new gain; the original keeps serving until the swap."""
        new = copy.copy(self)
        new.gain_scale = gain_scale
        return new

    def gravity(self, q):
        m1, m2 = self.masses
        l1, l2 = self.lengths
        c1, c12 = jnp.cos(q[0]), jnp.cos(q[0] + q[1])
        g2 = m2 * GRAVITY * 0.5 * l2 * c12
        g1 = (0.5 * m1 + m2) * GRAVITY * l1 * c1 + g2
        return jnp.stack([g1, g2])

    @partial(jax.jit, static_argnums=0)
    def torque(self, q, qd, q_ref):
        kp = self.gain_scale * jnp.asarray(self.kp, dtype=jnp.float32)
        kd = self.gain_scale**0.5 * jnp.asarray(self.kd, dtype=jnp.float32)
        return kp * (q_ref - q) - kd * qd + self.gravity(q)
