"""A toy motion-imitation task: a planar rodent model tracks a reference clip of joint angles."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

N_JOINTS = 6


class EnvState(NamedTuple):
    qpos: jax.Array
    qvel: jax.Array
    step: jax.Array
    reward: jax.Array


class ImitationEnv:
    def __init__(self, clip, dt=0.02, damping=0.3):
        self.clip = clip  # (T, N_JOINTS) reference joint angles
        self.dt = dt
        self.damping = damping

    def observe(self, state):
        ref = self.clip[state.step % self.clip.shape[0]]
        return jnp.concatenate([state.qpos, state.qvel, ref - state.qpos])

    def reset(self, key):
        qpos = self.clip[0] + 0.05 * jax.random.normal(key, (N_JOINTS,))
        zeros = jnp.zeros(N_JOINTS)
        return EnvState(qpos, zeros, jnp.zeros((), jnp.int32), jnp.zeros(()))

    def step(self, state, action):
        qvel = (1.0 - self.damping) * state.qvel + self.dt * action
        qpos = state.qpos + self.dt * qvel
        step = state.step + 1
        ref = self.clip[step % self.clip.shape[0]]
        reward = jnp.exp(-jnp.sum((qpos - ref) ** 2))
        return EnvState(qpos, qvel, step, reward)
