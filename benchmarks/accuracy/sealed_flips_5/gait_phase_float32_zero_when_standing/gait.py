"""Gait phase bookkeeping for a quadruped: the phase holds while standing and advances while walking."""

import jax.numpy as jnp


class GaitScheduler:
    def __init__(self, stride_hz, dt):
        self.stride_hz = jnp.float32(stride_hz)
        self.dt = jnp.float32(dt)
        self.reset()

    def reset(self):
        self.phase = jnp.zeros((), jnp.float32)

    def advance(self, walking):
        if walking:
            self.phase = jnp.mod(self.phase + self.stride_hz * self.dt, 1.0)
        return self.phase
