"""A small gradient-descent solver with a backtracking-free adaptive step size, in the style of jaxopt."""

from dataclasses import dataclass
from typing import NamedTuple

import jax
import jax.numpy as jnp


class SolverState(NamedTuple):
    iter_num: jax.Array
    stepsize: jax.Array
    value: jax.Array


def quadratic(params, data):
    a, b = data
    return 0.5 * jnp.sum((a @ params - b) ** 2)


@dataclass
class GradientDescent:
    fun: object
    maxiter: int = 10

    def init_state(self, params, data):
        return SolverState(
            iter_num=jnp.asarray(0),
            stepsize=1.0,  # expect: RTL401
            value=self.fun(params, data),
        )

    def run(self, params, data):
        state = self.init_state(params, data)
        for _ in range(self.maxiter):
            params, state = update(params, state, data)
        return params, state


@jax.jit
def update(params, state, data):
    value, grad = jax.value_and_grad(quadratic)(params, data)
    # Grow the step while the value improves, but never past 1 / |grad| (a trust bound).
    grown = jnp.where(value < state.value, state.stepsize * 1.5, state.stepsize * 0.5)
    stepsize = jnp.minimum(grown, 1.0 / (jnp.linalg.norm(grad) + 1e-6))
    return params - stepsize * grad, SolverState(state.iter_num + 1, stepsize, value)


if __name__ == "__main__":
    a = jnp.eye(3) + 0.1
    b = jnp.array([1.0, 2.0, 3.0])
    GradientDescent(quadratic).run(jnp.zeros(3), (a, b))
