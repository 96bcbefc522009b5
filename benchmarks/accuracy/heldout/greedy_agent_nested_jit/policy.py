"""A small softmax policy that picks an action and reports how confident it is."""

import jax
import jax.numpy as jnp


def mlp_apply(params, obs):
    hidden = jnp.tanh(obs @ params["w1"] + params["b1"])
    return hidden @ params["w2"] + params["b2"]


class GreedyAgent:
    def __init__(self, params, apply_fn=mlp_apply):
        self.params = params
        self.net_apply = apply_fn

    def take_action(self, obs):
        @jax.jit  # expect: RTL301
        def _take_action(params, obs):
            logits = self.net_apply(params, obs)
            probs = jax.nn.softmax(logits.ravel())
            ranked = jnp.sort(probs)
            return jnp.argmax(logits), ranked[-1] - ranked[-2]

        return _take_action(self.params, obs)
