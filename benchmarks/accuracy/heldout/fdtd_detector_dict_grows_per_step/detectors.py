"""Point detectors for the 1D FDTD solver and the automatic stopping rule."""

import jax
import jax.numpy as jnp


@jax.jit
def flux_has_decayed(detector_states, threshold):
    """True once the transmitted Poynting flux fell below `threshold` times its peak."""
    flux = jnp.stack(detector_states["poynting_flux"])
    peak = jnp.max(jnp.abs(flux))
    energy = jnp.stack(detector_states["energy"])
    recent = jnp.abs(flux[-1])
    return (recent < threshold * peak) & (energy[-1] < threshold * jnp.max(energy))


class DetectorBank:
    """Records the fields at a few cells after every time step."""

    def __init__(self, cell, kinds=("poynting_flux", "energy")):
        self.cell = cell
        self.detector_states = {kind: [] for kind in kinds}

    def _measure(self, kind, ez, hy):
        if kind == "poynting_flux":
            return -ez[self.cell] * hy[self.cell]
        return 0.5 * (ez[self.cell] ** 2 + hy[self.cell] ** 2)

    def record(self, ez, hy):
        for kind, readings in self.detector_states.items():
            readings.append(self._measure(kind, ez, hy))  # expect: RTL102

    def should_stop(self, threshold):
        return bool(flux_has_decayed(self.detector_states, threshold))
