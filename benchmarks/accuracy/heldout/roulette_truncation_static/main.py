"""Average several roulette estimates of the log-determinant term of a Gaussian log-likelihood."""

import jax
import jax.numpy as jnp
from roulette import RouletteLogDet


def kernel_matrix(points, lengthscale=1.5, scale=0.3):
    d2 = (points[:, None] - points[None, :]) ** 2
    return scale * jnp.exp(-0.5 * d2 / lengthscale**2)


if __name__ == "__main__":
    points = jnp.linspace(0.0, 3.0, 6, dtype=jnp.float32)
    A = kernel_matrix(points)
    estimator = RouletteLogDet(dim=points.shape[0])
    key = jax.random.PRNGKey(0)
    estimates = []
    for _ in range(8):
        key, sub = jax.random.split(key)
        estimates.append(float(estimator(A, sub)))
    exact = float(jnp.linalg.slogdet(jnp.eye(6) + A)[1])
    print(round(sum(estimates) / len(estimates), 3), round(exact, 3))
