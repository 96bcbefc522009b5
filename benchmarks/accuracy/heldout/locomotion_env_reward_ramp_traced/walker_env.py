"""A toy planar biped: joint-space dynamics plus a shaped locomotion reward whose
forward-velocity term is ramped in by a curriculum over training updates."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class WalkerState(NamedTuple):
    qpos: jax.Array  # (n_joints,)
    qvel: jax.Array  # (n_joints,)
    com_x: jax.Array  # forward position of the centre of mass
    time: jax.Array


class WalkerEnv:
    def __init__(self, n_joints=6, dt=0.02, ramp_updates=3, ramp_start=0.2):
        self.n_joints = n_joints
        self.dt = dt
        self.ramp_updates = ramp_updates
        self.ramp_start = ramp_start
        self.forward_vel_scale = ramp_start
        self.energy_weight = 0.01
        self.stiffness = jnp.linspace(2.0, 4.0, n_joints)
        # one compiled step for the whole run; the ramped weight is a traced argument
        self._step = jax.jit(self._step_impl)

    def reset(self, key):
        qpos = 0.05 * jax.random.normal(key, (self.n_joints,))
        return WalkerState(qpos, jnp.zeros(self.n_joints), jnp.float32(0.0), jnp.float32(0.0))

    def observe(self, state):
        return jnp.concatenate([state.qpos, state.qvel])

    def set_curriculum(self, update):
        frac = min(1.0, update / self.ramp_updates)
        self.forward_vel_scale = self.ramp_start + (1.0 - self.ramp_start) * frac

    def _step_impl(self, state, action, forward_vel_scale):
        torque = jnp.tanh(action) - self.stiffness * state.qpos
        qvel = 0.98 * state.qvel + self.dt * torque
        qpos = state.qpos + self.dt * qvel
        forward_vel = jnp.mean(jnp.sin(qpos) * qvel) + 0.1 * jnp.mean(jnp.abs(qvel))
        reward = forward_vel_scale * forward_vel - self.energy_weight * jnp.sum(action**2)
        new_state = WalkerState(qpos, qvel, state.com_x + self.dt * forward_vel,
                                state.time + self.dt)
        return new_state, reward

    def step(self, state, action):
        return self._step(state, action, self.forward_vel_scale)
