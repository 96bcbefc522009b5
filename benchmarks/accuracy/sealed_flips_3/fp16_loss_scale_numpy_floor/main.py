"""Train a two-layer network in float16 with a dynamic loss scale, keeping float32 master weights."""

import jax
import jax.numpy as jnp

from loss_scale import adjust, all_finite, init_loss_scale

LEARNING_RATE = 0.05


def init_params(key):
    k1, k2 = jax.random.split(key)
    return {
        "w1": jax.random.normal(k1, (4, 16)) * 0.5,
        "w2": jax.random.normal(k2, (16, 1)) * 0.5,
    }


def forward(params, x):
    half = jax.tree_util.tree_map(lambda p: p.astype(jnp.float16), params)
    h = jnp.tanh(x.astype(jnp.float16) @ half["w1"])
    return (h @ half["w2"]).astype(jnp.float32)


def loss_fn(params, x, y):
    return jnp.mean((forward(params, x) - y) ** 2)


@jax.jit
def train_step(params, loss_scale, x, y):
    def scaled_loss(p):
        return loss_fn(p, x, y) * loss_scale.scale.astype(jnp.float32)

    loss, grads = jax.value_and_grad(scaled_loss)(params)
    grads = jax.tree_util.tree_map(lambda g: g / loss_scale.scale.astype(jnp.float32), grads)
    finite = all_finite(grads)
    new_params = jax.tree_util.tree_map(
        lambda p, g: jnp.where(finite, p - LEARNING_RATE * g, p), params, grads
    )
    return new_params, adjust(loss_scale, finite), loss / loss_scale.scale.astype(jnp.float32)


def main(n_steps=12, seed=0):
    key_init, key_data = jax.random.split(jax.random.PRNGKey(seed))
    params = init_params(key_init)
    loss_scale = init_loss_scale()
    for key in jax.random.split(key_data, n_steps):
        x = jax.random.normal(key, (32, 4))
        y = jnp.sin(x.sum(axis=1, keepdims=True))
        params, loss_scale, loss = train_step(params, loss_scale, x, y)
    print(f"loss {float(loss):.4f}, loss scale {float(loss_scale.scale):.0f}")


if __name__ == "__main__":
    main()
