"""Dynamic loss scaling for float16 training, kept as a pytree so it can go through the jitted step."""

import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass(frozen=True)
class DynamicLossScale:
    loss_scale: jax.Array
    counter: jax.Array = dataclasses.field(default_factory=lambda: jnp.zeros((), jnp.int32))
    period: int = 3
    factor: int = 2
    min_loss_scale: jax.Array = dataclasses.field(default_factory=lambda: jnp.ones((), jnp.float32))  # expect: RTL402

    def tree_flatten(self):
        return (self.loss_scale, self.counter), (self.period, self.factor)

    @classmethod
    def tree_unflatten(cls, aux, children):
        loss_scale, counter = children
        period, factor = aux
        return cls(loss_scale, counter, period, factor)

    def scale(self, loss):
        return loss * self.loss_scale.astype(loss.dtype)

    def unscale(self, grads):
        inv = 1 / self.loss_scale
        return jax.tree.map(lambda g: (g * inv.astype(g.dtype)).astype(g.dtype), grads)

    def adjust(self, grads_finite):
        counter = self.counter + 1
        grow = counter == self.period
        grown = jnp.where(grow, self.loss_scale * self.factor, self.loss_scale)
        shrunk = jnp.maximum(self.min_loss_scale, self.loss_scale / self.factor)  # expect: RTL402
        loss_scale = jnp.where(grads_finite, grown, shrunk)
        counter = jnp.where(grads_finite & ~grow, counter, 0)
        return dataclasses.replace(self, loss_scale=loss_scale, counter=counter)


def all_finite(tree):
    leaves = jax.tree.leaves(tree)
    return jnp.all(jnp.stack([jnp.all(jnp.isfinite(x)) for x in leaves]))
