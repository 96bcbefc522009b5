"""Fit a float32 linear model to double-precision measurements with a plateau-reduced step size."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp
import numpy as np

import plateau

LEARNING_RATE = 0.1


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


@jax.jit
def train_step(params, plateau_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    step = LEARNING_RATE * plateau_state.scale
    params = jax.tree_util.tree_map(lambda p, g: (p - step * g).astype(p.dtype), params, grads)
    return params, plateau.update(plateau_state, loss), loss


def main(n_steps=40, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((200, 4))  # float64 measurements
    y = x @ np.array([[0.5], [-1.0], [2.0], [0.0]]) + 0.05 * rng.standard_normal((200, 1))
    params = {"w": jnp.zeros((4, 1), jnp.float32), "b": jnp.zeros((1,), jnp.float32)}
    state = plateau.init()
    for _ in range(n_steps):
        params, state, loss = train_step(params, state, x, y)
    print(f"loss {float(loss):.5f}, step-size scale {float(state.scale)}")


if __name__ == "__main__":
    main()
