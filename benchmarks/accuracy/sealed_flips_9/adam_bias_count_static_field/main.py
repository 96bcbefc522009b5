"""Fit a linear model to noisy data with Adam."""

import jax
import jax.numpy as jnp

import optim


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optim.update(grads, opt_state)
    params = jax.tree_util.tree_map(lambda p, u: p + u, params, updates)
    return params, opt_state, loss


def make_data(key, n=64, d=3):
    kx, kn = jax.random.split(key)
    x = jax.random.normal(kx, (n, d))
    w_true = jnp.array([1.5, -2.0, 0.5])
    return x, x @ w_true + 0.3 + 0.01 * jax.random.normal(kn, (n,))


def main():
    x, y = make_data(jax.random.PRNGKey(0))
    params = {"w": jnp.zeros((3,)), "b": jnp.zeros(())}
    opt_state = optim.init(params)
    for _ in range(6):
        params, opt_state, loss = train_step(params, opt_state, x, y)
    print(f"loss {float(loss):.4f} after {opt_state.count} steps")


if __name__ == "__main__":
    main()
