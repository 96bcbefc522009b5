"""Per-channel sensor calibration, registered as a pytree so it can also be mapped over."""

from functools import partial

import jax
from jax.tree_util import register_pytree_node


class Calibration:
    def __init__(self, gain, offset):
        self.gain = gain
        self.offset = offset

    def drift(self, factor):
        self.gain = self.gain * factor


register_pytree_node(
    Calibration,
    lambda c: ((c.gain, c.offset), None),
    lambda _, children: Calibration(*children),
)


@partial(jax.jit, static_argnums=1)
def apply_calibration(raw, calibration):
    return (raw - calibration.offset) * calibration.gain
