"""Forecast a sensor signal window by window with a GP, warm-starting each solve from the last."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from gp import RBF, ConstantMean, conjugate_gradient  # noqa: E402

mean_fn = ConstantMean(1.5)
kernel = RBF(lengthscale=0.3, variance=1.0)
NOISE = 0.05


@jax.jit
def solve_window(x, y, alpha_prev):
    """Representer weights alpha = (K + noise I)^-1 (y - m(x)), warm-started from the last window."""
    k = kernel.gram(x) + NOISE * jnp.eye(x.shape[0], dtype=x.dtype)
    return conjugate_gradient(lambda v: k @ v, y - mean_fn(x), alpha_prev)


def windows(n_windows=5, size=24, seed=0):
    """Float32 samples, as the acquisition library writes them."""
    rng = np.random.default_rng(seed)
    for i in range(n_windows):
        t = np.sort(rng.uniform(i, i + 1, size)).astype(np.float32)
        y = (1.5 + np.sin(3 * t) + 0.1 * rng.normal(size=size)).astype(np.float32)
        yield jnp.asarray(t[:, None]), jnp.asarray(y)


def main():
    alpha = jnp.zeros(24, dtype=jnp.float32)
    for x, y in windows():
        alpha = solve_window(x, y, alpha)
        fitted = kernel.gram(x) @ alpha + mean_fn(x)
        print(f"window rmse {float(jnp.sqrt(jnp.mean((fitted - y) ** 2))):.3f}")


if __name__ == "__main__":
    main()
