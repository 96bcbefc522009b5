"""An LSTM cell with zoneout: each unit keeps its previous value with some probability, for both the
hidden and the cell state, which travel together as an LSTMState."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class LSTMState(NamedTuple):
    h: jax.Array
    c: jax.Array


class ZoneoutLSTMCell:
    def __init__(self, features, hidden, key, zoneout=0.1):
        kx, kh = jax.random.split(key)
        self.hidden = hidden
        self.zoneout = zoneout
        self.params = {
            "wx": jax.random.normal(kx, (features, 4 * hidden)) / features**0.5,
            "wh": jax.random.normal(kh, (hidden, 4 * hidden)) / hidden**0.5,
            "b": jnp.zeros((4 * hidden,)),
        }

    def initial_state(self, batch):
        zeros = jnp.zeros((batch, self.hidden))
        return LSTMState(zeros, zeros)  # expect: RTL403

    def __call__(self, params, state, x, key):
        h_prev, c_prev = state
        gates = x @ params["wx"] + h_prev @ params["wh"] + params["b"]
        i, f, g, o = jnp.split(gates, 4, axis=-1)
        c = jax.nn.sigmoid(f) * c_prev + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        keep = jax.random.bernoulli(key, self.zoneout, (2,) + h.shape)
        new_state = tuple(  # expect: RTL403
            jnp.where(k, old, new) for k, old, new in zip(keep, state, (h, c))
        )
        return h, new_state
