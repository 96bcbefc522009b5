"""A Shampoo/SOAP-style optimizer for matrix parameters: Adam in the eigenbasis of gradient statistics."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class SoapState(NamedTuple):
    count: jax.Array
    gg_left: jax.Array
    gg_right: jax.Array
    exp_avg: jax.Array
    exp_avg_sq: jax.Array


def soap_init(param, qr_dtype=None):
    dtype = param.dtype if qr_dtype is None else qr_dtype
    rows, cols = param.shape
    return SoapState(
        count=jnp.zeros((), jnp.int32),
        gg_left=jnp.zeros((rows, rows), dtype),
        gg_right=jnp.zeros((cols, cols), dtype),
        exp_avg=jnp.zeros_like(param),
        exp_avg_sq=jnp.zeros_like(param),
    )


def soap_update(grad, state, lr=0.05, b1=0.9, b2=0.99, shampoo_beta=0.95, eps=1e-8):
    gg_left = shampoo_beta * state.gg_left + (1 - shampoo_beta) * grad @ grad.T
    gg_right = shampoo_beta * state.gg_right + (1 - shampoo_beta) * grad.T @ grad
    _, q_left = jnp.linalg.eigh(gg_left + eps * jnp.eye(gg_left.shape[0], dtype=gg_left.dtype))
    _, q_right = jnp.linalg.eigh(gg_right + eps * jnp.eye(gg_right.shape[0], dtype=gg_right.dtype))
    rotated = (q_left.T @ grad @ q_right).astype(grad.dtype)
    exp_avg = b1 * state.exp_avg + (1 - b1) * rotated
    exp_avg_sq = b2 * state.exp_avg_sq + (1 - b2) * rotated**2
    count = state.count + 1
    step = exp_avg / (jnp.sqrt(exp_avg_sq / (1 - b2**count)) + eps) / (1 - b1**count)
    update = -lr * (q_left @ step @ q_right.T).astype(grad.dtype)
    return update, SoapState(count, gg_left, gg_right, exp_avg, exp_avg_sq)
