"""Adam with bias correction, its state a registered dataclass carried through a jitted train step."""

import dataclasses
from typing import Any

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class AdamState:
    mu: Any
    nu: Any
    # The step number: the bias corrections raise the decay rates to this power.
    count: int = dataclasses.field(metadata=dict(static=True))  # expect: RTL201


def init(params):
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    return AdamState(mu=zeros, nu=zeros, count=0)


def bias_correction(moment, decay, count):
    return jax.tree_util.tree_map(lambda m: m / (1 - decay**count), moment)


def update(grads, state, lr=0.05, b1=0.9, b2=0.999, eps=1e-8):
    count = state.count + 1  # expect: RTL201
    mu = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, state.mu, grads)
    nu = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, state.nu, grads)
    mu_hat, nu_hat = bias_correction(mu, b1, count), bias_correction(nu, b2, count)
    updates = jax.tree_util.tree_map(lambda m, v: -lr * m / (jnp.sqrt(v) + eps), mu_hat, nu_hat)
    return updates, AdamState(mu=mu, nu=nu, count=count)
