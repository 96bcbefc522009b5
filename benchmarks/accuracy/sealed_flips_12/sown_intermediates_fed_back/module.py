"""A functional module with Flax-style variable collections: "params" plus a "intermediates" collection
that `sow` appends to (appending lets one module called several times keep every value)."""

import jax
import jax.numpy as jnp


def sow(collections, name, value):
    store = dict(collections.get("intermediates", {}))
    store[name] = store.get(name, ()) + (value,)  # expect: RTL403
    return {**collections, "intermediates": store}


class ResidualMLP:
    def __init__(self, d, hidden):
        self.d = d
        self.hidden = hidden

    def init(self, key):
        k1, k2 = jax.random.split(key)
        params = {
            "up": jax.random.normal(k1, (self.d, self.hidden)) / jnp.sqrt(self.d),
            "down": jax.random.normal(k2, (self.hidden, self.d)) / jnp.sqrt(self.hidden),
        }
        return {"params": params}

    def apply(self, variables, x):
        """Returns the output and the mutated collections (here: the sown intermediates)."""
        p = variables["params"]
        h = jax.nn.gelu(x @ p["up"])
        mutated = sow({k: v for k, v in variables.items() if k != "params"}, "hidden", h)
        return x + h @ p["down"], mutated
