"""Train a small linear model and evaluate the EMA of its weights after every step."""

import jax
import jax.numpy as jnp

import ema as ema_lib


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


@jax.jit
def train_step(params, ema, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    params = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
    ema = ema.update(params)
    return params, ema, loss, loss_fn(ema.averaged(), x, y)


def main():
    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (64, 4))
    y = x @ jnp.array([[1.0], [-2.0], [0.5], [3.0]]) + 0.1
    params = {"w": jnp.zeros((4, 1)), "b": jnp.zeros((1,))}
    ema = ema_lib.init(params)
    for step in range(5):
        params, ema, loss, ema_loss = train_step(params, ema, x, y)
        print(f"step {step}: loss {float(loss):.4f} ema loss {float(ema_loss):.4f}")


if __name__ == "__main__":
    main()
