"""A small JAX front end for smooth constrained NLPs, solved by a quadratic-penalty method.

`JaxProblem` derives the objective gradient and the constraint Jacobian with JAX and jits them;
`solve` is the convenience entry point users call for a one-off solve.
"""

import jax
import jax.numpy as jnp


class JaxProblem:
    def __init__(self, objective, constraints, penalty=50.0, lr=0.01):
        self.objective = objective
        self.constraints = constraints
        self.penalty = penalty
        self.lr = lr
        self._grad = jax.jit(jax.grad(self._merit))  # expect: RTL301

    def _merit(self, x, p):
        violation = jnp.maximum(self.constraints(x, p), 0.0)
        return self.objective(x, p) + self.penalty * jnp.sum(violation**2)

    def solve(self, p, x0, iters=4):
        x = x0
        for _ in range(iters):
            x = jnp.clip(x - self.lr * self._grad(x, p), 0.0, None)
        return x, float(self._merit(x, p))


def solve(objective, constraints, p, x0, **options):
    problem = JaxProblem(objective, constraints, **options)
    return problem.solve(p, x0)
