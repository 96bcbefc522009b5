"""A small Adam optimizer working on pytrees of weights, one slot per leaf."""

import jax
import jax.numpy as jnp


class Adam:
    def __init__(self, learning_rate=1e-2, b1=0.9, b2=0.999, eps=1e-8):
        self.learning_rate = learning_rate
        self.b1, self.b2, self.eps = b1, b2, eps

    def init(self, weight):
        return (jnp.zeros_like(weight), jnp.zeros_like(weight))

    def update(self, step, grad, weight, slot):
        m, v = slot
        m = self.b1 * m + (1.0 - self.b1) * grad
        v = self.b2 * v + (1.0 - self.b2) * grad**2
        m_hat = m / (1.0 - self.b1 ** (step + 1))
        v_hat = v / (1.0 - self.b2 ** (step + 1))
        new_weight = weight - self.learning_rate * m_hat / (jnp.sqrt(v_hat) + self.eps)
        return new_weight, (m, v)

    def tree_init(self, weight_tree):
        leaves = jax.tree.leaves(weight_tree)
        return [self.init(w) for w in leaves]  # expect: RTL403

    def tree_update(self, step, grad_tree, weight_tree, slots):
        grads, treedef = jax.tree.flatten(grad_tree)
        weights = jax.tree.leaves(weight_tree)
        updated = [self.update(step, g, w, s) for g, w, s in zip(grads, weights, slots)]
        new_weights = jax.tree.unflatten(treedef, [w for w, _ in updated])
        new_slots = tuple(s for _, s in updated)  # expect: RTL403
        return new_weights, new_slots
