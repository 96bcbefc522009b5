"""Optimizers whose per-parameter state is created lazily, the first time a parameter is updated."""

import jax
import jax.numpy as jnp


class RMSprop:
    def __init__(self, learning_rate, alpha=0.99, eps=1e-8):
        self.learning_rate = learning_rate
        self.alpha = alpha
        self.eps = eps
        self.state = {}

    def init_single(self, param):
        return {"v": jnp.zeros_like(param)}

    def apply_single(self, grad, param, state):
        v = self.alpha * state["v"] + (1 - self.alpha) * grad * grad
        return param - self.learning_rate * grad / (jnp.sqrt(v) + self.eps), {"v": v}

    def apply_gradients(self, grads, params, state):
        new_params, new_state = {}, {}
        for name, grad in grads.items():
            slot = state[name] if name in state else self.init_single(params[name])
            new_params[name], new_state[name] = self.apply_single(grad, params[name], slot)
        return new_params, new_state
