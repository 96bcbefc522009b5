"""Predict the training dynamics of a wide network with its empirical NTK, in double precision."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402

from network import MLP  # noqa: E402
from predictor import GradientDescentPredictor  # noqa: E402


def main():
    x_train = jnp.linspace(-1.0, 1.0, 24)[:, None]
    y_train = jnp.sin(3.0 * x_train)
    net = MLP(width=64)
    params = net.init(jax.random.PRNGKey(0))
    predictor = GradientDescentPredictor(net, params, x_train, y_train, learning_rate=0.02)
    fx = predictor.initial_outputs()
    for epoch in range(5):
        fx = predictor.advance(fx, steps=20)
        print(f"epoch {epoch}: train mse {float(jnp.mean((fx - y_train) ** 2)):.5f} ({fx.dtype})")


if __name__ == "__main__":
    main()
