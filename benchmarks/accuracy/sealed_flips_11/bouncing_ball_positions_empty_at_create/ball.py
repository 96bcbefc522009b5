"""A bouncing ball whose trajectory buffer is carried along with its simulator state."""

import dataclasses

import jax
import jax.numpy as jnp

HORIZON = 10
GRAVITY = jnp.array([0.0, 0.0, -9.81])


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class BouncingBall:
    pos: jax.Array  # (3,)
    vel: jax.Array  # (3,)
    positions: jax.Array  # recorded trajectory of the last rollout

    @classmethod
    def create(cls, pos, vel, positions=None):
        if positions is None:
            positions = jnp.zeros((0,), jnp.float32)  # expect: RTL105
        return cls(pos=pos, vel=vel, positions=positions)


def physics_step(pos, vel, force, dt=0.02, restitution=0.8):
    vel = vel + dt * (GRAVITY + force)
    pos = pos + dt * vel
    bounce = pos[2] < 0.0
    vel = vel.at[2].set(jnp.where(bounce, -restitution * vel[2], vel[2]))
    pos = pos.at[2].set(jnp.abs(pos[2]))
    return pos, vel
