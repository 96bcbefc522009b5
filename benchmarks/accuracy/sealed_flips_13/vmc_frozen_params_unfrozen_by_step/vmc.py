"""Fit the head of a pretrained network to a target log-amplitude; the base layer stays fixed."""

import jax
import jax.numpy as jnp

from frozen import unfreeze


def make_step(apply_fn, learning_rate):
    def loss_fn(params, spins, target):
        return jnp.mean((apply_fn(params, spins) - target) ** 2)

    def fit_step(params, spins, target):
        loss, grads = jax.value_and_grad(loss_fn)(params, spins, target)
        new_params = unfreeze(params)  # expect: RTL403
        new_params["head"] = jax.tree.map(
            lambda p, g: p - learning_rate * g, new_params["head"], unfreeze(grads["head"])
        )
        return new_params, loss

    return jax.jit(fit_step)


class HeadFitDriver:
    def __init__(self, model, params, learning_rate=0.05):
        self.params = params
        self._step = make_step(model.apply, learning_rate)

    def run(self, sampler, target_fn, n_iter):
        for i in range(n_iter):
            spins = sampler(i)
            self.params, loss = self._step(self.params, spins, target_fn(spins))
        return float(loss)
