"""Running averages for the training log."""

import jax
import jax.numpy as jnp


@jax.jit
def _ema(average, value, decay):
    return decay * average + (1.0 - decay) * value


class EmaMeter:
    """Exponential moving average of a scalar metric, kept as a float32 array from the start."""

    def __init__(self, decay=0.9):
        self.decay = decay
        self.value = jnp.float32(0.0)

    def update(self, value):
        self.value = _ema(self.value, value, self.decay)
        return self.value
