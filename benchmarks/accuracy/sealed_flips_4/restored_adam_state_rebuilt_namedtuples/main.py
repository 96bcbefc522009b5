"""Train a small regression model, checkpoint it, then resume training from the restored state."""

import jax
import jax.numpy as jnp

from checkpoint import from_state_dict, to_state_dict
from optim import adam_init, adam_update

TRUE_W = jnp.array([[1.5], [-2.0], [0.5]])


def make_batch(key, n=64):
    x = jax.random.normal(key, (n, 3))
    return x, x @ TRUE_W + 0.3


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = adam_update(grads, opt_state)
    params = jax.tree_util.tree_map(jnp.add, params, updates)
    return params, opt_state, loss


def run(params, opt_state, key, n_steps):
    for batch_key in jax.random.split(key, n_steps):
        params, opt_state, loss = train_step(params, opt_state, *make_batch(batch_key))
    return params, opt_state, loss


def main(seed=0):
    key_init, key_a, key_b = jax.random.split(jax.random.PRNGKey(seed), 3)
    params = {"w": 0.1 * jax.random.normal(key_init, (3, 1)), "b": jnp.zeros((1,))}
    opt_state = adam_init(params, learning_rate=0.05)
    params, opt_state, loss = run(params, opt_state, key_a, 20)
    saved = to_state_dict({"params": params, "opt_state": opt_state})

    # Resume, as a fresh run would: a template of the right structure, filled from the checkpoint.
    template = {"params": params, "opt_state": adam_init(params, learning_rate=0.05)}
    restored = from_state_dict(template, saved)
    params, opt_state, loss = run(restored["params"], restored["opt_state"], key_b, 20)
    print(f"loss after resuming: {float(loss):.4f}, step {int(opt_state[0].count)}")


if __name__ == "__main__":
    main()
