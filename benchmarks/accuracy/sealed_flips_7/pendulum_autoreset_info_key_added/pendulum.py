"""A damped pendulum swing-up task with a brax-like State (obs, reward, done, info dict)."""

import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class State:
    q: jax.Array
    obs: jax.Array
    reward: jax.Array
    done: jax.Array
    info: dict


def _obs(q):
    return jnp.stack([jnp.cos(q[0]), jnp.sin(q[0]), q[1]])


class Pendulum:
    dt = 0.05
    max_torque = 2.0

    def reset(self, key):
        q = jnp.stack([jnp.pi + jax.random.uniform(key, (), minval=-0.3, maxval=0.3), jnp.zeros(())])
        return State(q, _obs(q), jnp.zeros(()), jnp.zeros(()), {"steps": jnp.zeros(())})

    def step(self, state, action):
        angle, velocity = state.q
        torque = self.max_torque * jnp.tanh(action)
        velocity = velocity + self.dt * (-9.81 * jnp.sin(angle) - 0.1 * velocity + torque)
        q = jnp.stack([angle + self.dt * velocity, velocity])
        steps = state.info["steps"] + 1
        reward = jnp.cos(q[0]) - 0.01 * torque**2
        done = (steps >= 40).astype(jnp.float32)
        return State(q, _obs(q), reward, done, {**state.info, "steps": steps})
