"""Model variables whose values are converted to JAX arrays on assignment, and the model's state dict."""

import jax.numpy as jnp


class Var:
    def __init__(self, value, name):
        self.name = name
        self.value = value

    @property
    def value(self):
        return self._value

    @value.setter
    def value(self, new_value):
        self._value = jnp.asarray(new_value)  # expect: RTL401


class Model:
    def __init__(self, *variables):
        self.vars = {v.name: v for v in variables}

    @property
    def state(self):
        return {name: v.value for name, v in self.vars.items()}

    @state.setter
    def state(self, new_state):
        for name, value in new_state.items():
            self.vars[name].value = value
