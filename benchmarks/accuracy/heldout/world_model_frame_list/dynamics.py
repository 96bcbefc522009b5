"""A tiny latent dynamics model: next-frame token logits from the frames so far and an action."""

import jax
import jax.numpy as jnp


def init_dynamics(key, vocab=32, dim=16, actions=4):
    k1, k2, k3 = jax.random.split(key, 3)
    return {
        "tokens": jax.random.normal(k1, (vocab, dim)) * 0.2,
        "actions": jax.random.normal(k2, (actions, dim)) * 0.2,
        "out": jax.random.normal(k3, (dim, vocab)) * 0.2,
    }


@jax.jit
def predict_next_frame(params, frames, action):
    history = jnp.stack(frames)  # (time, patches)
    h = params["tokens"][history].mean(axis=0) + params["actions"][action]
    return jnp.tanh(h) @ params["out"]  # (patches, vocab)
