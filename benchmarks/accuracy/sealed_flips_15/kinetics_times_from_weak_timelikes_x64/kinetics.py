"""A reversible reaction chain A <-> B -> C with first-order rates, concentrations in float32."""

import jax.numpy as jnp


class ReactionChain:
    def __init__(self, k_forward=1.5, k_backward=0.4, k_out=0.8):
        self.rates = jnp.asarray([k_forward, k_backward, k_out], dtype=jnp.float32)

    def initial_concentrations(self):
        return jnp.asarray([1.0, 0.0, 0.0], dtype=jnp.float32)

    def vector_field(self, t, y, rates):
        a, b, c = y[0], y[1], y[2]
        kf, kb, ko = rates[0], rates[1], rates[2]
        return jnp.stack([-kf * a + kb * b, kf * a - kb * b - ko * b, ko * b])
