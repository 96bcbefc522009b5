"""A train state: parameters and momentum are pytree leaves; the step count is bookkeeping."""

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class TrainState:
    params: dict
    momentum: dict
    learning_rate: float = dataclasses.field(metadata=dict(static=True))
    step: np.int32 = dataclasses.field(metadata=dict(static=True))  # expect: RTL201

    @classmethod
    def create(cls, params, learning_rate):
        momentum = jax.tree.map(jnp.zeros_like, params)
        return cls(params=params, momentum=momentum, learning_rate=learning_rate, step=np.int32(0))

    def apply_gradients(self, grads):
        momentum = jax.tree.map(lambda m, g: 0.9 * m + g, self.momentum, grads)
        params = jax.tree.map(lambda p, m: p - self.learning_rate * m, self.params, momentum)
        return dataclasses.replace(self, params=params, momentum=momentum, step=self.step + 1)  # expect: RTL201
