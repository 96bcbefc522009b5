"""A damped leapfrog-style integrator: velocities decay by a constant factor each step."""

import jax
import numpy as np

from swarm import pair_forces


def kick(velocities, forces, decay, dt):
    return decay * (velocities + dt * forces)  # expect: RTL402


def drift(positions, velocities, dt):
    return positions + dt * velocities


class DampedIntegrator:
    def __init__(self, dt=0.01, damping=0.5):
        self.dt = dt
        self.decay = np.exp(-damping * dt)  # expect: RTL402
        self._kick = jax.jit(kick)
        self._drift = jax.jit(drift)

    def step(self, swarm):
        forces = pair_forces(swarm.positions, swarm.masses)
        swarm.velocities = self._kick(swarm.velocities, forces, self.decay, self.dt)
        swarm.positions = self._drift(swarm.positions, swarm.velocities, self.dt)
