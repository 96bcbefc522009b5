"""An LSTM cell with recurrent batch normalization (BN-LSTM), written after the TensorFlow
RNNCell interface: the state is an LSTMStateTuple(c, h) when state_is_tuple, else c and h
concatenated along the feature axis."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class LSTMStateTuple(NamedTuple):
    c: jax.Array
    h: jax.Array


def batch_norm(x, gamma, eps=1e-3):
    mean = jnp.mean(x, axis=0, keepdims=True)
    var = jnp.var(x, axis=0, keepdims=True)
    return gamma * (x - mean) / jnp.sqrt(var + eps)


class BNLSTMCell:
    def __init__(self, num_inputs, num_units, key, state_is_tuple=True):
        self.num_units = num_units
        self.state_is_tuple = state_is_tuple
        kx, kh = jax.random.split(key)
        self.params = {
            "wx": jax.random.normal(kx, (num_inputs, 4 * num_units)) * 0.2,
            "wh": jax.random.normal(kh, (num_units, 4 * num_units)) * 0.2,
            "b": jnp.zeros((4 * num_units,)),
            "gamma_x": jnp.full((4 * num_units,), 0.1),
            "gamma_h": jnp.full((4 * num_units,), 0.1),
            "gamma_c": jnp.full((num_units,), 0.1),
        }

    def zero_state(self, batch):
        c = jnp.zeros((batch, self.num_units))
        h = jnp.zeros((batch, self.num_units))
        if self.state_is_tuple:
            return LSTMStateTuple(c, h)
        return jnp.concatenate([c, h], axis=1)

    def __call__(self, params, x, state):
        if isinstance(state, LSTMStateTuple):
            c, h = state
        else:
            c, h = jnp.split(state, 2, axis=1)
        gates = (
            batch_norm(x @ params["wx"], params["gamma_x"])
            + batch_norm(h @ params["wh"], params["gamma_h"])
            + params["b"]
        )
        i, j, f, o = jnp.split(gates, 4, axis=1)
        new_c = c * jax.nn.sigmoid(f + 1.0) + jax.nn.sigmoid(i) * jnp.tanh(j)
        new_h = jnp.tanh(batch_norm(new_c, params["gamma_c"])) * jax.nn.sigmoid(o)
        new_state = (
            LSTMStateTuple(new_c, new_h)
            if self.state_is_tuple
            else jnp.concatenate([new_c, new_h], axis=1)
        )
        return new_h, new_state
