"""Filamentary coil set for a toy stellarator coil-current optimisation."""

import jax.numpy as jnp
import numpy as np


class CoilSet:
    """Planar circular coils placed around the major radius.

    The optimisable attributes are the coil radii, the individual currents and
    one overall current scale (amperes per unit current), which the user gives
    in the config file as a plain number.
    """

    def __init__(self, n_coils, major_radius, minor_radius, base_current):
        phi = np.linspace(0.0, 2.0 * np.pi, n_coils, endpoint=False)
        self.phi = jnp.asarray(phi, dtype=jnp.float32)
        self.major_radius = major_radius
        self.radii = jnp.full((n_coils,), minor_radius, dtype=jnp.float32)
        self.currents = jnp.ones((n_coils,), dtype=jnp.float32)
        self.current_scale = float(base_current)  # expect: RTL401

    def params(self):
        return {
            "radii": self.radii,
            "currents": self.currents,
            "current_scale": self.current_scale,
        }

    def set_params(self, params):
        self.radii = params["radii"]
        self.currents = params["currents"]
        self.current_scale = params["current_scale"]

    def __repr__(self):
        return f"CoilSet(n={self.radii.shape[0]}, scale={float(self.current_scale):.4f})"
