"""Particles bouncing in a box under gravity and linear drag."""

from dataclasses import dataclass, field, replace

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class World:
    pos: jax.Array  # (n, 2) metres
    vel: jax.Array  # (n, 2) m/s
    drag: jax.Array  # 1/s, may be changed between steps
    box: float = field(default=1.0, metadata=dict(static=True))
    restitution: float = field(default=0.8, metadata=dict(static=True))

    @classmethod
    def create(cls, key, n=16, box=1.0):
        kp, kv = jax.random.split(key)
        pos = jax.random.uniform(kp, (n, 2), minval=0.1 * box, maxval=0.9 * box)
        vel = jax.random.normal(kv, (n, 2))
        return cls(pos=pos, vel=vel, drag=jnp.asarray(0.1, jnp.float32), box=box)

    @jax.jit
    def step(self, dt):
        acc = jnp.array([0.0, -9.81]) - self.drag * self.vel
        vel = self.vel + dt * acc
        pos = self.pos + dt * vel
        low, high = pos < 0.0, pos > self.box
        vel = jnp.where(low | high, -self.restitution * vel, vel)
        pos = jnp.clip(pos, 0.0, self.box)
        return replace(self, pos=pos, vel=vel)

    @jax.jit
    def energy(self):
        kinetic = 0.5 * jnp.sum(self.vel**2)
        potential = 9.81 * jnp.sum(self.pos[:, 1])
        return kinetic + potential
