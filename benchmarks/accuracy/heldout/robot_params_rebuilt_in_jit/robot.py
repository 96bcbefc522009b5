"""A planar serial arm: a fixed link layout plus numeric parameters that can be swapped."""

import jax.numpy as jnp

GRAVITY = 9.81


class PlanarArm:
    def __init__(self, num_links, params):
        self.num_links = num_links
        self.params = params

    @classmethod
    def default(cls, num_links):
        return cls(num_links, {"lengths": jnp.full(num_links, 0.5), "masses": jnp.ones(num_links)})

    def with_params(self, params):
        return PlanarArm(self.num_links, params)

    def joint_heights(self, q):
        angles = jnp.cumsum(q)
        return jnp.cumsum(self.params["lengths"] * jnp.sin(angles))

    def potential_energy(self, q):
        return GRAVITY * jnp.sum(self.params["masses"] * self.joint_heights(q))
