"""A sequence classifier that unrolls the BN-LSTM cell over time steps in Python."""

import jax
import jax.numpy as jnp


class SequenceClassifier:
    def __init__(self, cell, num_classes, key):
        self.cell = cell
        self.w_out = jax.random.normal(key, (cell.num_units, num_classes)) * 0.2
        self._cell_step = jax.jit(self.cell_step)

    def cell_step(self, params, x, state):
        return self.cell(params, x, state)

    def logits(self, sequence):
        state = self.cell.zero_state(sequence.shape[1])
        output = None
        for x in sequence:
            output, state = self._cell_step(self.cell.params, x, state)
        return output @ self.w_out
