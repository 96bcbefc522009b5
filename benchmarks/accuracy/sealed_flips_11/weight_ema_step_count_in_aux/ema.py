"""Exponential moving average of model weights with a bias-corrected warm-up (as in Adam)."""

import jax
import jax.numpy as jnp


class WeightEMA:
    def __init__(self, shadow, decay=0.9, updates=0):
        self.shadow = shadow
        self.decay = decay
        self.updates = updates

    def update(self, params):
        updates = self.updates + 1  # expect: RTL201
        shadow = jax.tree.map(lambda s, p: self.decay * s + (1.0 - self.decay) * p, self.shadow, params)
        return WeightEMA(shadow, self.decay, updates)

    def averaged(self):
        correction = 1.0 - self.decay ** jnp.maximum(self.updates, 1)
        return jax.tree.map(lambda s: s / correction, self.shadow)


def _flatten(ema):
    return (ema.shadow,), (ema.decay, ema.updates)  # expect: RTL201


def _unflatten(aux, children):
    decay, updates = aux
    return WeightEMA(children[0], decay, updates)


jax.tree_util.register_pytree_node(WeightEMA, _flatten, _unflatten)


def init(params, decay=0.9):
    return WeightEMA(jax.tree.map(jnp.zeros_like, params), decay)
