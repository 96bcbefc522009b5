"""Anderson mixing for self-consistent mean-field equations, written in the style of a solver library:
``init_state`` builds the state, ``update`` does one jitted mixing step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp


class MixingState(NamedTuple):
    iter_num: Any
    error: jax.Array
    x_hist: jax.Array  # last `history_size` iterates, one per row
    res_hist: jax.Array  # their residuals g(x) - x


@dataclass
class AndersonMixer:
    fixed_point_fun: Callable[..., jax.Array]
    history_size: int = 3
    beta: float = 0.7
    ridge: float = 1e-6

    def __post_init__(self):
        self.update = jax.jit(self._mixing_update)

    def init_state(self, x0, *args) -> MixingState:
        res0 = self.fixed_point_fun(x0, *args) - x0
        m = self.history_size
        return MixingState(
            iter_num=0,
            error=jnp.inf,  # expect: RTL401
            x_hist=jnp.tile(x0, (m, 1)),
            res_hist=jnp.tile(res0, (m, 1)),
        )

    def _mixing_update(self, x, state: MixingState, *args):
        res = self.fixed_point_fun(x, *args) - x
        slot = state.iter_num % self.history_size
        x_hist = state.x_hist.at[slot].set(x)
        res_hist = state.res_hist.at[slot].set(res)
        m = self.history_size
        gram = res_hist @ res_hist.T + self.ridge * jnp.eye(m)
        w = jnp.linalg.solve(gram, jnp.ones(m))
        alpha = w / jnp.sum(w)
        x_next = alpha @ (x_hist + self.beta * res_hist)
        new_state = MixingState(
            iter_num=state.iter_num + 1,
            error=jnp.linalg.norm(res),
            x_hist=x_hist,
            res_hist=res_hist,
        )
        return x_next, new_state

    def run(self, x0, *args, maxiter: int = 5):
        state = self.init_state(x0, *args)
        x = x0
        for _ in range(maxiter):
            x, state = self.update(x, state, *args)
        return x, state
