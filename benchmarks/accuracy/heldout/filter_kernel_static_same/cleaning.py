"""Apply a chosen kernel repeatedly, passing the kernel itself as a static argument."""

from functools import partial

import jax
import jax.numpy as jnp
from filters import box_smooth


@partial(jax.jit, static_argnums=(0,))
def smooth_and_detrend(kernel, signal):
    smoothed = kernel(kernel(signal))
    return smoothed - jnp.mean(smoothed)


class Cleaner:
    def __init__(self, kernel=box_smooth):
        self.kernel = kernel

    def clean(self, signal):
        return smooth_and_detrend(self.kernel, signal)
