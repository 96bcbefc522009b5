"""An echo-state network: fixed random reservoir, ridge-trained linear readout."""

from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class ESN(NamedTuple):
    w_in: jax.Array
    w_res: jax.Array
    w_out: jax.Array


def make_esn(key, data_dim=3, res_dim=64, spectral_radius=0.9):
    k1, k2 = jax.random.split(key)
    w = jax.random.normal(k2, (res_dim, res_dim)) / jnp.sqrt(res_dim)
    w = w * spectral_radius / jnp.max(jnp.abs(jnp.linalg.eigvals(w)))
    return ESN(jax.random.uniform(k1, (res_dim, data_dim), minval=-0.5, maxval=0.5),
               w.real.astype(jnp.float32), jnp.zeros((data_dim, res_dim)))


def _update(esn, r, u):
    return jnp.tanh(esn.w_res @ r + esn.w_in @ u)


@jax.jit
def harvest_states(esn, series):
    def drive(r, u):
        r = _update(esn, r, u)
        return r, r

    return jax.lax.scan(drive, jnp.zeros(esn.w_res.shape[0]), series)[1]


@jax.jit
def listen(esn, warmup):
    def synchronise(r, u):
        return _update(esn, r, u), None

    return jax.lax.scan(synchronise, jnp.zeros(esn.w_res.shape[0]), warmup)[0]


def train_readout(esn, series, ridge=1e-4):
    states = harvest_states(esn, series[:-1])
    a = states.T @ states + ridge * jnp.eye(states.shape[1])
    return esn._replace(w_out=jnp.linalg.solve(a, states.T @ series[1:]).T)


@partial(jax.jit, static_argnames=("fcast_len",))
def forecast(esn, r0, fcast_len):
    def autonomous(r, _):
        u = esn.w_out @ r
        r = _update(esn, r, u)
        return r, u

    _, us = jax.lax.scan(autonomous, r0, None, length=fcast_len)
    return us
