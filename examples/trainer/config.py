"""Hyper-parameters, fixed for a whole run."""

from dataclasses import dataclass


# Frozen, so it is hashable by value: safe to pass as a static argument to jitted functions.
@dataclass(frozen=True)
class Config:
    num_features: int = 8
    num_classes: int = 4
    hidden: int = 32
    num_train: int = 80  # not a multiple of batch_size
    num_test: int = 90
    batch_size: int = 32
    eval_batch_size: int = 32
    epochs: int = 2
    lr: float = 0.5
    lr_decay: float = 0.7
    warmup_steps: int = 4
    max_grad_norm: float = 5.0
    weight_decay: float = 1e-4
    # The toy language model used by decode.py.
    vocab_size: int = 16
    embed_dim: int = 16
    max_len: int = 16
    seed: int = 0
