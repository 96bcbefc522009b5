"""Forward simulation, split into gathering the kernels and running them."""

from typing import Callable, NamedTuple

import jax.numpy as jnp


class CompiledSimulate(NamedTuple):
    kernels: dict
    advance: Callable
    regime_of_period: tuple


def compile_simulate(model):
    """Bundle the jitted kernels each period of a simulation needs."""
    regime_of_period = tuple(
        next(name for name, r in model.regimes.items() if t in r.active) for t in range(model.n_periods)
    )
    kernels = {name: regime.choose for name, regime in model.regimes.items()}
    return CompiledSimulate(kernels, model.advance, regime_of_period)


def run_compiled_simulate(compiled, params, initial_wealth):
    wealth, consumption_path = initial_wealth, []
    for regime in compiled.regime_of_period:
        consumption, savings = compiled.kernels[regime](wealth, params)
        wealth = compiled.advance(savings, params["rate"])
        consumption_path.append(consumption)
    return jnp.stack(consumption_path), wealth
