"""A steepest-descent linear solver that reports its belief about the solution after every iteration."""

import jax
import jax.numpy as jnp


def descent_step(A, b, x):
    shape = jnp.shape(x)
    x, b = jnp.ravel(x), jnp.ravel(b)
    r = b - A @ x
    alpha = (r @ r) / (r @ (A @ r))
    return (x + alpha * r).reshape(shape), jnp.linalg.norm(r)


class SteepestDescentSolver:
    def __init__(self, maxiter=30, atol=1e-5):
        self.maxiter = maxiter
        self.atol = atol
        self._step = jax.jit(descent_step)

    def solve(self, problem):
        x = problem.prior_mean()
        history = []
        for _ in range(self.maxiter):
            x, residual = self._step(problem.A, problem.b, x)
            history.append(float(residual))
            if history[-1] < self.atol:
                break
        return x, history
