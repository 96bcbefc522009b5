"""Run configuration."""

from dataclasses import dataclass


@dataclass(frozen=True)
class TrainConfig:
    d_model: int
    learning_rate: float
    offload_optimizer_state: bool = False
