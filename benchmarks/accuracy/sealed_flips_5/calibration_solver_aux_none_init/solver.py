"""A small gradient-descent solver in the style of jaxopt: init_state / update, with auxiliary loss outputs."""

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class SolverState(NamedTuple):
    iter_num: jax.Array
    value: jax.Array
    aux: Any


class GradientSolver:
    def __init__(self, fun, stepsize, has_aux=False):
        self.fun = fun  # fun(params, *args) -> loss, or (loss, aux) with has_aux
        self.stepsize = stepsize
        self.has_aux = has_aux

    def init_state(self, params, *args):
        return SolverState(
            iter_num=jnp.zeros((), jnp.int32),
            value=jnp.full((), jnp.inf, jnp.float32),
            aux=None,  # expect: RTL403
        )

    def update(self, params, state, *args):
        grad_fn = jax.value_and_grad(self.fun, has_aux=self.has_aux)
        if self.has_aux:
            (value, aux), grads = grad_fn(params, *args)
        else:
            value, grads = grad_fn(params, *args)
            aux = None
        params = jax.tree.map(lambda p, g: p - self.stepsize * g, params, grads)
        return params, SolverState(state.iter_num + 1, value, aux)
