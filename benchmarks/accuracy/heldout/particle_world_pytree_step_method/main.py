"""Run a bouncing-particle box with a drag schedule and log its energy."""

import jax
import jax.numpy as jnp

from world import World


class Simulation:
    def __init__(self, seed=0, dt=0.005, substeps=10):
        self.world = World.create(jax.random.PRNGKey(seed))
        self.dt = dt
        self.substeps = substeps
        self.t = 0.0
        self.log = []

    def set_drag(self, drag):
        # new drag value, same dtype and shape: the jitted methods see a new leaf value
        self.world = self.world.__class__(
            pos=self.world.pos, vel=self.world.vel,
            drag=jnp.asarray(drag, jnp.float32),
            box=self.world.box, restitution=self.world.restitution,
        )

    def advance(self):
        for _ in range(self.substeps):
            self.world = self.world.step(self.dt)
            self.t += self.dt
        self.log.append((round(self.t, 3), float(self.world.energy())))


def main():
    sim = Simulation()
    for frame, drag in enumerate([0.1, 0.1, 0.3, 0.6, 1.0]):
        sim.set_drag(drag)
        sim.advance()
        t, e = sim.log[-1]
        print(f"frame {frame}: t={t:.3f}s drag={drag:.1f} energy={e:.3f}")


if __name__ == "__main__":
    main()
