"""Running averages for the training log."""

import jax


@jax.jit
def _ema(average, value, decay):
    return decay * average + (1.0 - decay) * value


class EmaMeter:
    """Exponential moving average of a scalar metric."""

    def __init__(self, decay=0.9):
        self.decay = decay
        self.value = 0.0  # expect: RTL401

    def update(self, value):
        self.value = _ema(self.value, value, self.decay)
        return self.value
