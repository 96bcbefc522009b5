"""Two recurrent-style layers on top of the backend loop: a per-step dense projection (no state of
its own) and a simple RNN."""

import jax
import jax.numpy as jnp

from backend import rnn


class TimeDistributedDense:
    def __init__(self, features, units, key):
        self.kernel = jax.random.normal(key, (features, units)) / features**0.5
        self.bias = jnp.zeros((units,))
        self._step = jax.jit(self.dense_step)

    def dense_step(self, x, states):
        y = jnp.tanh(x @ self.kernel + self.bias)
        return y, [y]  # expect: RTL105

    def __call__(self, inputs):
        _, outputs, _ = rnn(self._step, inputs)
        return outputs


class SimpleRNN:
    def __init__(self, features, units, key):
        kx, kh = jax.random.split(key)
        self.units = units
        self.kernel = jax.random.normal(kx, (features, units)) / features**0.5
        self.recurrent = jax.random.normal(kh, (units, units)) / units**0.5
        self._step = jax.jit(self.rnn_step)

    def rnn_step(self, x, states):
        h = jnp.tanh(x @ self.kernel + states[0] @ self.recurrent)
        return h, [h]

    def __call__(self, inputs):
        h0 = jnp.zeros((inputs.shape[1], self.units), dtype=inputs.dtype)
        last, _, _ = rnn(self._step, inputs, [h0])
        return last
