"""Fit a small MLP regressor in float32 with bfloat16 optimizer moments."""

import jax
import jax.numpy as jnp
import numpy as np

from optimizer import adam_init, adam_update


def init_params(key, n_in=6, n_hidden=16):
    k1, k2 = jax.random.split(key)
    return {
        "w1": jax.random.normal(k1, (n_in, n_hidden)) / np.sqrt(n_in),
        "b1": jnp.zeros(n_hidden),
        "w2": jax.random.normal(k2, (n_hidden,)) / np.sqrt(n_hidden),
    }


def loss_fn(params, x, y):
    h = jax.nn.gelu(x @ params["w1"] + params["b1"])
    return jnp.mean((h @ params["w2"] - y) ** 2)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = adam_update(grads, opt_state)
    params = jax.tree_util.tree_map(jnp.add, params, updates)
    return params, opt_state, loss


def main(steps=8):
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(256, 6)), jnp.float32)
    y = jnp.sin(x[:, 0]) + 0.5 * x[:, 1]
    params = init_params(jax.random.PRNGKey(0))
    opt_state = adam_init(params)
    for _ in range(steps):
        params, opt_state, loss = train_step(params, opt_state, x, y)
    print("loss", float(loss), "moment dtype", opt_state.mu["w1"].dtype)


if __name__ == "__main__":
    main()
