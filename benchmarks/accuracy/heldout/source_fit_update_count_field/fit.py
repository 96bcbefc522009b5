"""Gradient-descent fit of a point source to an observed image."""

import dataclasses

import jax
import jax.numpy as jnp


def _loss(source, grid, image):
    return 0.5 * jnp.sum((source.render(grid) - image) ** 2)


@jax.jit
def _make_step(source, grid, image, lr=0.01):
    loss, grads = jax.value_and_grad(_loss)(source, grid, image)
    return loss, dataclasses.replace(
        source,
        flux=source.flux - lr * grads.flux,
        center=source.center - lr * grads.center,
        n_updates=source.n_updates + 1,  # expect: RTL201
    )


def fit(source, grid, image, steps=5):
    for _ in range(steps):
        loss, source = _make_step(source, grid, image)
    return source, loss
