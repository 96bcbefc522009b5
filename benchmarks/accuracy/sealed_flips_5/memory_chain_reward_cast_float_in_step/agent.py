"""A recurrent meta-RL agent that sees its previous reward next to the observation."""

import jax
import jax.numpy as jnp

HIDDEN = 8


def init(key):
    k1, k2 = jax.random.split(key)
    return {"w_in": 0.5 * jax.random.normal(k1, (3, HIDDEN)), "w_out": 0.5 * jax.random.normal(k2, (HIDDEN, 2))}


@jax.jit
def agent_step(params, hidden, timestep, key):
    inputs = jnp.concatenate([timestep.obs, timestep.reward[None]])
    hidden = jnp.tanh(inputs @ params["w_in"] + 0.9 * hidden)
    action = jax.random.categorical(key, hidden @ params["w_out"])
    return hidden, action
