"""Train the MLP for a few steps; the model returned by the step carries its updated call count."""

import dataclasses

import jax
import jax.numpy as jnp

import layers


@jax.jit
def train_step(model, x, y, key):
    def loss_fn(weights):
        pred, new_model = dataclasses.replace(model, w1=weights[0], w2=weights[1])(x, key)
        return jnp.mean((pred - y) ** 2), new_model

    weights = (model.w1, model.w2)
    (loss, new_model), grads = jax.value_and_grad(loss_fn, has_aux=True)(weights)
    w1, w2 = jax.tree_util.tree_map(lambda p, g: p - 0.05 * g, weights, grads)
    return dataclasses.replace(new_model, w1=w1, w2=w2), loss


def main(steps=5):
    key = jax.random.PRNGKey(0)
    model = layers.make_mlp(key, 4, 16, 1)
    x = jax.random.normal(key, (32, 4))
    y = jnp.sum(x, axis=1, keepdims=True)
    for _ in range(steps):
        key, sub = jax.random.split(key)
        model, loss = train_step(model, x, y, sub)
        print(f"calls {model.calls}: loss {float(loss):.4f}")


if __name__ == "__main__":
    main()
