"""A mixed-precision policy: parameters kept in float32, computation in float16."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class Policy:
    param_dtype: jnp.dtype = jnp.float32
    compute_dtype: jnp.dtype = jnp.float16

    def cast_to_compute(self, tree):
        return jax.tree_util.tree_map(self._cast, tree)

    def cast_to_param(self, tree):
        return jax.tree_util.tree_map(lambda x: x.astype(self.param_dtype), tree)

    def _cast(self, x):
        if hasattr(x, "dtype") and jnp.issubdtype(x.dtype, jnp.floating):
            return x.astype(self.compute_dtype)
        return x
