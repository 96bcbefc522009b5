"""NLP evaluator for a small mixed-integer process-synthesis model.

Builds jitted objective/gradient callables from the model's data.
"""

import jax
import jax.numpy as jnp


class NLPEvaluator:
    def __init__(self, model):
        self.model = model
        cost = jnp.asarray(model["cost"])
        yield_coef = jnp.asarray(model["yield"])
        demand = model["demand"]
        penalty = model["penalty"]

        def objective(x):
            production = jnp.dot(yield_coef, x)
            shortfall = jnp.maximum(demand - production, 0.0)
            return jnp.dot(cost, x ** 2) + penalty * shortfall ** 2

        self._value_and_grad = jax.jit(jax.value_and_grad(objective))  # expect: RTL301

    def evaluate(self, x):
        return self._value_and_grad(x)

    def variable_bounds(self):
        return self.model["lb"], self.model["ub"]
