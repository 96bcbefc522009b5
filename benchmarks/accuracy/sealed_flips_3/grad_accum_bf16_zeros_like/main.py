"""Fit a small regression head whose bfloat16 weights are updated every 4 micro-batches."""

import jax
import jax.numpy as jnp

from accumulate import add_micro_batch, averaged, init_accumulator

MICRO_STEPS = 4
LEARNING_RATE = 0.01


def init_params(key, n_in=8, n_out=2):
    w = jax.random.normal(key, (n_in, n_out)) * 0.1
    return {"w": w.astype(jnp.bfloat16), "b": jnp.zeros((n_out,), jnp.bfloat16)}


def loss_fn(params, x, y):
    pred = x @ params["w"] + params["b"]
    return jnp.mean((pred - y) ** 2)


@jax.jit
def accumulate_step(params, accum, x, y):
    # Differentiate through a float32 copy so small gradients are not flushed to zero in bfloat16.
    master = jax.tree_util.tree_map(lambda p: p.astype(jnp.float32), params)
    loss, grads = jax.value_and_grad(loss_fn)(master, x, y)
    return add_micro_batch(accum, grads, loss)


@jax.jit
def apply_step(params, accum):
    grads, loss = averaged(accum)
    new_params = jax.tree_util.tree_map(
        lambda p, g: (p - LEARNING_RATE * g).astype(p.dtype), params, grads
    )
    return new_params, loss


def batches(key, n, batch=16):
    true_w = jnp.arange(16.0).reshape(8, 2) / 16.0
    for k in jax.random.split(key, n):
        x = jax.random.normal(k, (batch, 8))
        yield x, x @ true_w


def main(n_updates=3, seed=0):
    key_init, key_data = jax.random.split(jax.random.PRNGKey(seed))
    params = init_params(key_init)
    data = batches(key_data, n_updates * MICRO_STEPS)
    for update in range(n_updates):
        accum = init_accumulator(params)
        for _ in range(MICRO_STEPS):
            x, y = next(data)
            accum = accumulate_step(params, accum, x, y)
        params, loss = apply_step(params, accum)
        print(f"update {update}: loss {float(loss):.4f}")


if __name__ == "__main__":
    main()
