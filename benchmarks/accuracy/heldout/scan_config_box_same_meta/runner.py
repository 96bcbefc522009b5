"""Scan a ConfigBox's update rule over an input sequence."""

import jax
import jax.numpy as jnp


def step_wrapper(cfg, state, inp):
    nxt = cfg.step_fn(state, inp)
    return nxt, nxt


@jax.jit
def run_scan(cfg, seq):
    body = lambda state, inp: step_wrapper(cfg, state, inp)
    state0 = jnp.zeros(cfg.scale)
    return jax.lax.scan(body, state0, seq)
