"""An LSTM cell whose weights and initial carry live on a frozen module."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

from frozen import FrozenModule


class LSTMState(NamedTuple):
    h: jax.Array
    c: jax.Array


class LSTMCell(FrozenModule):
    def __init__(self, key, n_in, n_hidden):
        k_x, k_h = jax.random.split(key)
        self.w_x = jax.random.normal(k_x, (n_in, 4 * n_hidden)) / jnp.sqrt(n_in)
        self.w_h = jax.random.normal(k_h, (n_hidden, 4 * n_hidden)) / jnp.sqrt(n_hidden)
        self.bias = jnp.zeros((4 * n_hidden,))
        self.initial_carry = LSTMState(jnp.zeros((n_hidden,)), jnp.zeros((n_hidden,)))

    def weights(self):
        return self.w_x, self.w_h, self.bias


def lstm_update(weights, carry, x):
    w_x, w_h, bias = weights
    h, c = carry
    i, f, g, o = jnp.split(x @ w_x + h @ w_h + bias, 4)
    c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
    h = jax.nn.sigmoid(o) * jnp.tanh(c)
    return LSTMState(h, c)
