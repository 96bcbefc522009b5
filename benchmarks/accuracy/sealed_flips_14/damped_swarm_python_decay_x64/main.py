"""Run a damped swarm for a few steps; energy diagnostics are accumulated in float64."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402

from integrator import DampedIntegrator  # noqa: E402
from swarm import Swarm  # noqa: E402


def kinetic_energy(swarm):
    v2 = jnp.sum(swarm.velocities.astype(jnp.float64) ** 2, axis=-1)
    return float(0.5 * jnp.sum(swarm.masses.astype(jnp.float64) * v2))


def main():
    swarm = Swarm(24, jax.random.PRNGKey(0))
    integrator = DampedIntegrator()
    energies = []
    for _ in range(8):
        integrator.step(swarm)
        energies.append(kinetic_energy(swarm))
    print("kinetic energy:", [round(e, 4) for e in energies])


if __name__ == "__main__":
    main()
