"""Limited-memory BFGS with the curvature pairs kept on the optimizer object."""

import jax
import jax.numpy as jnp


@jax.jit
def two_loop_direction(grad, s_hist, y_hist):
    """Classic two-loop recursion; s_hist/y_hist are (k, n), oldest first."""
    rho = 1.0 / jnp.sum(s_hist * y_hist, axis=1)
    q = grad
    alphas = []
    for i in range(s_hist.shape[0] - 1, -1, -1):
        a = rho[i] * jnp.dot(s_hist[i], q)
        q = q - a * y_hist[i]
        alphas.append(a)
    gamma = jnp.dot(s_hist[-1], y_hist[-1]) / jnp.dot(y_hist[-1], y_hist[-1])
    r = gamma * q
    for i, a in zip(range(s_hist.shape[0]), reversed(alphas)):
        b = rho[i] * jnp.dot(y_hist[i], r)
        r = r + s_hist[i] * (a - b)
    return -r


class LbfgsMemory:
    def __init__(self, n_params, size=3):
        self.size = size
        self.s_hist = jnp.zeros((0, n_params))
        self.y_hist = jnp.zeros((0, n_params))

    def __len__(self):
        return self.s_hist.shape[0]

    def push(self, s, y):
        if jnp.dot(s, y) <= 1e-10:  # skip pairs that break positive definiteness
            return
        self.s_hist = jnp.concatenate([self.s_hist, s[None]])[-self.size:]  # expect: RTL102
        self.y_hist = jnp.concatenate([self.y_hist, y[None]])[-self.size:]  # expect: RTL102

    def direction(self, grad):
        if len(self) == 0:
            return -grad
        return two_loop_direction(grad, self.s_hist, self.y_hist)
