"""The model object: regimes and their jitted kernels, built once when the model is made."""

import dataclasses
from typing import Callable

import jax

from regimes import advance_wealth, consume_retired, consume_working


@dataclasses.dataclass(frozen=True)
class InternalRegime:
    name: str
    active: range
    choose: Callable


class LifecycleModel:
    def __init__(self, n_periods=6, retirement_period=4, n_subjects=8):
        self.n_periods = n_periods
        self.n_subjects = n_subjects
        self.regimes = {
            "working": InternalRegime("working", range(0, retirement_period), jax.jit(consume_working)),
            "retired": InternalRegime("retired", range(retirement_period, n_periods), jax.jit(consume_retired)),
        }
        self.advance = jax.jit(advance_wealth)
