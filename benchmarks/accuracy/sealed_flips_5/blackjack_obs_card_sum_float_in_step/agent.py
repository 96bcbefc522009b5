"""A logistic hit/stand policy over the normalised observation."""

import jax
import jax.numpy as jnp


def init_params():
    return {"w": jnp.array([-0.4, 0.1, 0.5], jnp.float32), "b": jnp.float32(6.5)}


@jax.jit
def act(params, obs, key):
    features = jnp.concatenate([obs.player_sum, obs.dealer_card, obs.usable_ace])
    p_hit = jax.nn.sigmoid(features @ params["w"] + params["b"])
    return jax.random.bernoulli(key, p_hit)
