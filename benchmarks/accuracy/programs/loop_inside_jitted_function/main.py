"""A multi-layer forward pass whose Python loop runs while the jitted function is traced."""

import jax
import jax.numpy as jnp


def dense(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


def init(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [
        {"w": jax.random.normal(k, (m, n)) * 0.3, "b": jnp.zeros(n)}
        for k, m, n in zip(keys, sizes[:-1], sizes[1:])
    ]


@jax.jit
def forward(layers, x):
    for i, params in enumerate(layers):
        x = dense(params, x) * (1.0 + 0.1 * i)
    return x.sum(axis=-1)


def predict_all(layers, batches):
    return [forward(layers, x) for x in batches]


if __name__ == "__main__":
    layers = init(jax.random.PRNGKey(0), [3, 8, 8, 2])
    predict_all(layers, [jnp.ones((4, 3)) * k for k in range(5)])
