"""Dynamic loss scaling for half-precision training, in the style of a mixed-precision helper library."""

import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class DynamicLossScale:
    loss_scale: jax.Array
    counter: jax.Array
    period: int = dataclasses.field(default=200, metadata=dict(static=True))
    factor: int = dataclasses.field(default=2, metadata=dict(static=True))

    def scale(self, tree):
        return jax.tree_util.tree_map(lambda x: x * self.loss_scale.astype(x.dtype), tree)

    def unscale(self, tree):
        inverse = 1.0 / self.loss_scale
        return jax.tree_util.tree_map(lambda x: (x * inverse).astype(x.dtype), tree)

    def adjust(self, grads_finite):
        # Grow after `period` finite steps, shrink at once on an overflow.
        grown = jnp.where(self.counter == self.period - 1, self.loss_scale * self.factor, self.loss_scale)
        loss_scale = jnp.where(grads_finite, grown, self.loss_scale / self.factor)
        counter = jnp.where(grads_finite, (self.counter + 1) % self.period, 0)
        return dataclasses.replace(self, loss_scale=loss_scale, counter=counter)


def make_loss_scale(initial=2**15, period=200):
    return DynamicLossScale(
        loss_scale=jnp.asarray(initial, dtype=jnp.float32),
        counter=jnp.zeros((), jnp.int32),
        period=period,
    )


def all_finite(tree):
    return jnp.all(jnp.array([jnp.all(jnp.isfinite(x)) for x in jax.tree_util.tree_leaves(tree)]))
