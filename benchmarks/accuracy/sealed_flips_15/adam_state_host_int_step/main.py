"""Fit a noisy linear relation with Adam for a few steps."""

import jax

from regression import Regression


def main():
    kx, kn, kp = jax.random.split(jax.random.PRNGKey(0), 3)
    x = jax.random.normal(kx, (64, 4))
    y = x @ jax.numpy.asarray([1.0, -2.0, 0.5, 3.0]) + 0.1 * jax.random.normal(kn, (64,))
    model = Regression(features=4, key=kp)
    print("losses:", [round(v, 3) for v in model.fit(x, y, steps=6)])


if __name__ == "__main__":
    main()
