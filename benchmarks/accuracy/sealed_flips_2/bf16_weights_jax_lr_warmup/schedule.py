"""Learning-rate warmup computed on the host, one value per step."""

import numpy as np


def linear_warmup(base_lr, step, warmup_steps):
    """base_lr scaled by min(step + 1, warmup_steps) / warmup_steps."""
    return base_lr * np.minimum(step + 1, warmup_steps) / warmup_steps
