"""Train a small float16 regression network with dynamic loss scaling."""

import jax
import jax.numpy as jnp

from loss_scale import all_finite, make_loss_scale


def init_params(key, sizes=(8, 32, 1)):
    keys = jax.random.split(key, len(sizes) - 1)
    return [
        {"w": jax.random.normal(k, (a, b), jnp.float32) / jnp.sqrt(a), "b": jnp.zeros((b,), jnp.float32)}
        for k, a, b in zip(keys, sizes[:-1], sizes[1:])
    ]


def forward(params, x):
    h = x.astype(jnp.float16)
    for i, layer in enumerate(params):
        h = h @ layer["w"].astype(jnp.float16) + layer["b"].astype(jnp.float16)
        if i < len(params) - 1:
            h = jax.nn.gelu(h)
    return h.astype(jnp.float32)


def loss_fn(params, scaler, x, y):
    loss = jnp.mean(jnp.square(forward(params, x) - y))
    return scaler.scale(loss), loss


@jax.jit
def train_step(params, scaler, x, y, lr=1e-2):
    grads, loss = jax.grad(loss_fn, has_aux=True)(params, scaler, x, y)
    grads = scaler.unscale(grads)
    finite = all_finite(grads)
    new_params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    params = jax.tree_util.tree_map(lambda new, old: jnp.where(finite, new, old), new_params, params)
    return params, scaler.adjust(finite), loss


def main():
    k_init, k_data = jax.random.split(jax.random.PRNGKey(0))
    params = init_params(k_init)
    scaler = make_loss_scale()
    x = jax.random.normal(k_data, (64, 8), jnp.float32)
    y = jnp.sin(x.sum(axis=1, keepdims=True))
    for step in range(8):
        params, scaler, loss = train_step(params, scaler, x, y)
    print(f"loss {float(loss):.4f}, loss scale {float(scaler.loss_scale):.0f}")


if __name__ == "__main__":
    main()
