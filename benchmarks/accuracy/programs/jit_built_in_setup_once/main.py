"""Build a jitted predictor from trained parameters once, then serve many requests with it."""

import jax
import jax.numpy as jnp


def train(x, y, steps=20):
    def mse(v):
        return jnp.mean((x @ v - y) ** 2)

    w = jnp.zeros(x.shape[1])
    grad = jax.jit(jax.grad(mse))
    for _ in range(steps):
        w = w - 0.1 * grad(w)
    return w


def build_predictor(w, scale):
    return jax.jit(lambda batch: scale * jnp.tanh(batch @ w))


def serve(predictor, requests):
    return [predictor(r) for r in requests]


def main():
    x = jnp.linspace(-1.0, 1.0, 24).reshape(8, 3)
    w = train(x, x.sum(axis=1))
    predictor = build_predictor(w, 2.0)
    serve(predictor, [x[:4] * k for k in range(5)])


if __name__ == "__main__":
    main()
