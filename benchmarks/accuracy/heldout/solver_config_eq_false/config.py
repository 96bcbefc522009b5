"""Settings of the implicit relaxation solver."""

from dataclasses import dataclass


@dataclass(eq=False)
class SolverConfig:
    max_iters: int = 20
    damping: float = 0.5
    regularization: float = 1e-3


def make_config(**overrides):
    return SolverConfig(**overrides)  # expect: RTL204
