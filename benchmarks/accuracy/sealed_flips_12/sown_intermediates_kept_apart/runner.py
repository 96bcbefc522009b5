"""Batch-by-batch evaluation; the mutated collections are merged back into the variables after each
call, the usual pattern for mutable collections such as batch statistics."""

import jax
import jax.numpy as jnp


class Evaluator:
    def __init__(self, model, variables):
        self.variables = variables
        self._apply = jax.jit(model.apply)
        self.last_hidden_norm = 0.0

    def step(self, x):
        y, mutated = self._apply(self.variables, x)
        self.sown = mutated  # kept apart: what goes into the next call stays the same
        self.last_hidden_norm = float(jnp.linalg.norm(mutated["intermediates"]["hidden"][-1]))
        return y
