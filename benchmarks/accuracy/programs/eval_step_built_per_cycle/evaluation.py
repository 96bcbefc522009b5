"""Periodic evaluation of a model's masked predictions."""

import jax
import jax.numpy as jnp


def make_eval_step(apply_fn, n_masks):
    def eval_step(params, x, key):
        masks = jax.random.bernoulli(key, 0.8, (n_masks,) + x.shape)
        preds = jax.vmap(lambda m: apply_fn(params, x * m))(masks)
        return preds.mean(axis=0), preds.std(axis=0).mean()

    return jax.jit(eval_step)  # expect: RTL301


def evaluate(apply_fn, params, x, key, n_masks=4):
    step = make_eval_step(apply_fn, n_masks)
    return step(params, x, key)
