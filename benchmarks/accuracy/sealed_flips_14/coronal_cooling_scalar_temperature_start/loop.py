"""Radiative cooling of a coronal loop at constant density: explicit steps of the energy equation."""

import jax

from ions import K_B


class CoolingLoop:
    def __init__(self, ions, density=1.0e9, heating=1.0e-5, dt=200.0):
        self.ions = ions
        self.density = density
        self.heating = heating
        self.dt = dt
        self._step = jax.jit(self.step)

    def step(self, temperature):
        loss = self.ions.radiative_loss(temperature, self.density)
        d_energy = self.heating - loss
        return temperature + self.dt * d_energy / (3.0 * self.density * K_B)

    def evolve(self, temperature, num_steps):
        history = [float(temperature.reshape(-1)[0])]
        for _ in range(num_steps):
            temperature = self._step(temperature)
            history.append(float(temperature.reshape(-1)[0]))
        return history
