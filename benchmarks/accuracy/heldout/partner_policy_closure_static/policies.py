"""Partner policies: an MLP over the joint observation, with weights loaded per partner."""

import jax
import jax.numpy as jnp


def init_mlp(key, obs_dim=6, hidden=16, actions=4):
    k1, k2 = jax.random.split(key)
    return {"w1": jax.random.normal(k1, (obs_dim, hidden)) * 0.3,
            "w2": jax.random.normal(k2, (hidden, actions)) * 0.3}


def mlp_logits(params, obs):
    return jnp.tanh(obs @ params["w1"]) @ params["w2"]


def make_partner_policy(params):
    def act(obs, key):
        return jax.random.categorical(key, mlp_logits(params, obs))
    return act
