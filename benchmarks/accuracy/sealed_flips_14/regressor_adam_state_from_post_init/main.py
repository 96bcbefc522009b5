"""Fit a linear regressor to noisy synthetic data."""

import jax
import jax.numpy as jnp

from model import Regressor, train_step


def main():
    kx, kn, km = jax.random.split(jax.random.PRNGKey(0), 3)
    x = jax.random.normal(kx, (64, 3))
    y = x @ jnp.array([1.5, -2.0, 0.5]) + 0.3 + 0.05 * jax.random.normal(kn, (64,))
    model = Regressor(km, features=3)
    for epoch in range(10):
        model, loss = train_step(model, x, y)
        if epoch % 3 == 0:
            print(f"epoch {epoch}: loss {float(loss):.4f}")


if __name__ == "__main__":
    main()
