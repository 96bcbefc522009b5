"""A fiasco-style collection of ions whose quantities accept scalar or array temperatures: inputs
are parsed with atleast_1d, so every quantity has a temperature axis."""

import jax.numpy as jnp
import numpy as np

K_B = 1.380649e-16  # erg / K


class Ion:
    def __init__(self, name, abundance, peak_temperature, width, strength):
        self.name = name
        self.abundance = abundance
        self.log_peak = float(np.log10(peak_temperature))
        self.width = width
        self.strength = strength

    def emissivity(self, temperature):
        temperature = jnp.atleast_1d(temperature)  # expect: RTL105
        log_t = jnp.log10(temperature)
        return self.strength * jnp.exp(-(((log_t - self.log_peak) / self.width) ** 2))


class IonCollection:
    def __init__(self, ions):
        self.ions = ions

    def radiative_loss(self, temperature, density):
        """Optically thin loss rate per unit volume, n^2 * sum of abundance-weighted emissivities."""
        total = sum(ion.abundance * ion.emissivity(temperature) for ion in self.ions)
        return density**2 * total
