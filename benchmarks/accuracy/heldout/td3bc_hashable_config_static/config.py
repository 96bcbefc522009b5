"""TD3+BC hyperparameters, hashable so they can be a static argument of the jitted updates."""

from dataclasses import dataclass


@dataclass(frozen=True)
class TD3BCConfig:
    discount: float = 0.99
    tau: float = 0.005
    policy_noise: float = 0.2
    noise_clip: float = 0.5
    alpha: float = 2.5
    hidden_dims: tuple = (16, 16)

    @classmethod
    def from_dict(cls, values):
        # lists (from YAML/CLI) become tuples so the config stays hashable
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items()})
