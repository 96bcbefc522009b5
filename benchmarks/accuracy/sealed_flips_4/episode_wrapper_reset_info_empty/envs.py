"""A point-mass reaching task with a Brax-style environment State."""

import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class State:
    pos: jax.Array
    vel: jax.Array
    obs: jax.Array
    reward: jax.Array
    done: jax.Array
    metrics: dict = dataclasses.field(default_factory=dict)
    info: dict = dataclasses.field(default_factory=dict)


class PointMass:
    dt = 0.05
    goal = jnp.array([1.0, -0.5])

    def reset(self, rng):
        pos = jax.random.uniform(rng, (2,), minval=-1.0, maxval=1.0)
        vel = jnp.zeros(2)
        zero = jnp.zeros(())
        return State(pos, vel, self._obs(pos, vel), zero, zero, metrics={"distance": zero})

    def step(self, state, action):
        vel = 0.9 * state.vel + self.dt * jnp.clip(action, -1.0, 1.0)
        pos = state.pos + self.dt * vel
        distance = jnp.linalg.norm(pos - self.goal)
        done = (distance < 0.05).astype(jnp.float32)
        return dataclasses.replace(
            state,
            pos=pos,
            vel=vel,
            obs=self._obs(pos, vel),
            reward=-distance,
            done=done,
            metrics={"distance": distance},
        )

    def _obs(self, pos, vel):
        return jnp.concatenate([pos, vel, self.goal - pos])
