"""A small damped Gauss-Newton solver used to calibrate storage models."""
from dataclasses import dataclass
from typing import Callable

import jax
import jax.numpy as jnp


@dataclass
class GaussNewton:
    residual_fun: Callable
    maxiter: int = 5
    damping: float = 1e-3
    jit: bool = True

    def update(self, params, obs):
        r = self.residual_fun(params, obs)
        J = jax.jacfwd(self.residual_fun)(params, obs)
        JtJ = J.T @ J + self.damping * jnp.eye(params.shape[0])
        step = jnp.linalg.solve(JtJ, J.T @ r)
        return params - step, 0.5 * jnp.sum(r ** 2)

    def run(self, init_params, obs):
        update = jax.jit(self.update) if self.jit else self.update  # expect: RTL301
        params = init_params
        costs = []
        for _ in range(self.maxiter):
            params, cost = update(params, obs)
            costs.append(float(cost))
        return params, costs
