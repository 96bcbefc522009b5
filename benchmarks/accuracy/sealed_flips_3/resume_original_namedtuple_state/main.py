"""Train a linear model, checkpoint it, then resume from the checkpoint as a restarted job would."""

import os
import tempfile

import jax
import jax.numpy as jnp

from checkpoint import restore, save
from optim import adam_init, adam_update


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = adam_update(grads, opt_state)
    params = jax.tree_util.tree_map(jnp.add, params, updates)
    return params, opt_state, loss


def batches(key, n):
    true_w = jnp.array([[1.0], [-2.0], [0.5]])
    for k in jax.random.split(key, n):
        x = jax.random.normal(k, (32, 3))
        yield x, x @ true_w + 0.3


def fresh_state():
    params = {"w": jnp.zeros((3, 1)), "b": jnp.zeros((1,))}
    return params, adam_init(params)


def run(params, opt_state, data, n_steps):
    for _ in range(n_steps):
        x, y = next(data)
        params, opt_state, loss = train_step(params, opt_state, x, y)
    return params, opt_state, loss


def main(seed=0):
    data = batches(jax.random.PRNGKey(seed), 20)
    params, opt_state = fresh_state()
    params, opt_state, loss = run(params, opt_state, data, 10)
    with tempfile.TemporaryDirectory() as workdir:
        path = os.path.join(workdir, "ckpt.pkl")
        save(path, (params, opt_state))
        params, opt_state = restore(path, fresh_state())
    params, opt_state, loss = run(params, opt_state, data, 10)
    print(f"loss after resume: {float(loss):.4f}, step {int(opt_state.count)}")


if __name__ == "__main__":
    main()
