"""A dropout MLP as a registered dataclass; it counts its forward calls to anneal the dropout rate."""

import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class AnnealedDropoutMLP:
    w1: jax.Array
    w2: jax.Array
    calls: int = dataclasses.field(default=0, metadata=dict(static=True))  # expect: RTL201

    def rate(self):
        return 0.5 * 0.8**self.calls

    def __call__(self, x, key):
        h = jax.nn.relu(x @ self.w1)
        keep = jax.random.bernoulli(key, 1.0 - self.rate(), h.shape)
        h = jnp.where(keep, h / (1.0 - self.rate()), 0.0)
        return h @ self.w2, dataclasses.replace(self, calls=self.calls + 1)  # expect: RTL201


def make_mlp(key, din, dhidden, dout):
    k1, k2 = jax.random.split(key)
    return AnnealedDropoutMLP(
        jax.random.normal(k1, (din, dhidden)) / din**0.5,
        jax.random.normal(k2, (dhidden, dout)) / dhidden**0.5,
    )
