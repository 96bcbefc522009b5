"""A tiny first-order solver with an init_state / update interface, shared by the cell-fitting scripts."""

from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp


class SolverState(NamedTuple):
    iter_num: jax.Array
    value: jax.Array
    stepsize: jax.Array
    aux: Any  # whatever the objective returns next to its value (has_aux=True)


class GradientDescent:
    """Plain gradient descent on a pytree of parameters; `update` is compiled once per solver."""

    def __init__(self, fun: Callable, stepsize: float = 1e-2, has_aux: bool = False):
        self.fun = fun
        self.stepsize = stepsize
        self.has_aux = has_aux
        self._value_and_grad = jax.value_and_grad(fun, has_aux=has_aux)
        self.update = jax.jit(self._descent_update)

    def init_state(self, params, *args) -> SolverState:
        # Nothing has been evaluated yet, so there is no auxiliary output to report.
        return SolverState(
            iter_num=jnp.zeros((), jnp.int32),
            value=jnp.full((), jnp.inf, jnp.float32),
            stepsize=jnp.full((), self.stepsize, jnp.float32),
            aux=None,  # expect: RTL403
        )

    def _descent_update(self, params, state: SolverState, *args):
        if self.has_aux:
            (value, aux), grads = self._value_and_grad(params, *args)
        else:
            value, grads = self._value_and_grad(params, *args)
            aux = None
        params = jax.tree_util.tree_map(lambda p, g: p - state.stepsize * g, params, grads)
        return params, SolverState(state.iter_num + 1, value, state.stepsize, aux)
