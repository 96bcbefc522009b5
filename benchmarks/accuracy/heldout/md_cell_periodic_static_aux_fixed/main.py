"""NVT-ish Lennard-Jones slab: periodic in x and y, open in z, with a slowly rescaled box."""

import dataclasses

import jax
import jax.numpy as jnp

from cell import Berendsen, make_cell

N_ATOMS = 16
DT = 0.005
TAU = 0.1


def lj_energy(pos, cell):
    dr = pos[:, None, :] - pos[None, :, :]
    dr = cell.minimum_image(dr)
    r2 = jnp.sum(dr**2, axis=-1) + jnp.eye(pos.shape[0])
    inv6 = (1.0 / r2) ** 3
    pair = 4.0 * (inv6**2 - inv6) * (1.0 - jnp.eye(pos.shape[0]))
    return 0.5 * jnp.sum(pair)


@jax.jit
def md_step(pos, vel, cell, thermo):
    force = -jax.grad(lj_energy)(pos, cell)
    vel = vel + DT * force
    temp = jnp.mean(vel**2)
    lam = jnp.sqrt(1.0 + DT / thermo.tau * (thermo.target_temp / temp - 1.0))
    vel = vel * lam
    pos = cell.wrap(pos + DT * vel)
    return pos, vel, temp


class SlabRun:
    def __init__(self, box=(4.0, 4.0, 8.0)):
        self.cell = make_cell(box)
        key = jax.random.PRNGKey(3)
        grid = jnp.stack(jnp.meshgrid(jnp.arange(4.0), jnp.arange(4.0), jnp.array([2.0])), -1)
        self.pos = grid.reshape(-1, 3)[:N_ATOMS] + 0.05 * jax.random.normal(key, (N_ATOMS, 3))
        self.vel = jnp.zeros((N_ATOMS, 3))

    def thermostat(self, target):
        return Berendsen(jnp.float32(target), TAU)

    def rescale_box(self, factor):
        self.cell = dataclasses.replace(self.cell, lengths=self.cell.lengths * factor)

    def run(self, schedule):
        log = []
        for target in schedule:
            self.pos, self.vel, temp = md_step(self.pos, self.vel, self.cell, self.thermostat(target))
            self.rescale_box(1.001)
            log.append(float(temp))
        return log


if __name__ == "__main__":
    run = SlabRun()
    temps = run.run([0.8, 0.9, 1.0, 1.1, 1.2])
    print("temperatures", [round(t, 4) for t in temps])
