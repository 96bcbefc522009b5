"""Fixed-boundary equilibrium fit with a proximal outer loop.

Each outer iteration re-linearises the boundary constraints at the current
state and re-factorises them before running a few Gauss-Newton steps in the
reduced coordinates.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from constraints import factorize_linear_constraints

N_MODES = 8


def force_residual(x, target):
    # toy force-balance error of the Fourier coefficients
    k = jnp.arange(1, x.shape[0] + 1, dtype=x.dtype)
    return k * x + 0.1 * jnp.sin(x) - target


@partial(jax.jit, static_argnames=("recover",))
def scaled_error(y, target, weights, recover):
    return weights * force_residual(recover(y), target)


@partial(jax.jit, static_argnames=("recover",))
def gauss_newton_step(y, target, weights, recover):
    r = scaled_error(y, target, weights, recover)
    J = jax.jacfwd(lambda yy: weights * force_residual(recover(yy), target))(y)
    dy = jnp.linalg.lstsq(J, -r)[0]
    return y + dy


class ProximalOptimizer:
    def __init__(self, target, weights):
        self.target = target
        self.weights = weights
        self.project = None
        self.recover = None

    def relinearize(self, x):
        # boundary: first two modes pinned to their current values (edge shape)
        A = np.zeros((2, N_MODES), dtype=np.float32)
        A[0, 0] = 1.0
        A[1, 1] = 1.0
        b = np.asarray(x[:2])
        self.project, self.recover = factorize_linear_constraints(A, b)

    def inner_solve(self, x, n_steps=2):
        y = self.project(x)
        for _ in range(n_steps):
            y = gauss_newton_step(y, self.target, self.weights, self.recover)  # expect: RTL204
        err = scaled_error(y, self.target, self.weights, self.recover)  # expect: RTL204
        return self.recover(y), float(jnp.sum(err**2))

    def run(self, x0, n_outer=4):
        x = x0
        for it in range(n_outer):
            self.relinearize(x)
            x, cost = self.inner_solve(x)
            print(f"outer {it}: cost={cost:.3e}")
        return x


if __name__ == "__main__":
    target = jnp.linspace(0.5, 2.0, N_MODES, dtype=jnp.float32)
    weights = jnp.ones(N_MODES, dtype=jnp.float32)
    x0 = jnp.zeros(N_MODES, dtype=jnp.float32).at[0].set(1.0)
    opt = ProximalOptimizer(target, weights)
    x = opt.run(x0)
    print("final", np.round(np.asarray(x), 3))
