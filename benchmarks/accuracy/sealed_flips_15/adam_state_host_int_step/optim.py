"""A structural Adam: its state is a pytree over the parameter tree (first and second moments as
leaves) plus the step number used by the bias corrections."""

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class AdamState:
    def __init__(self, step, mu, nu):
        self.step = step
        self.mu = mu
        self.nu = nu

    def tree_flatten(self):
        return (self.mu, self.nu), (self.step,)  # expect: RTL201

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(aux[0], *children)


class Adam:
    def __init__(self, lr=0.05, b1=0.9, b2=0.999, eps=1e-8):
        self.lr, self.b1, self.b2, self.eps = lr, b1, b2, eps

    def init(self, params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return AdamState(0, zeros, zeros)

    def update(self, grads, state):
        step = state.step + 1  # expect: RTL201
        mu = jax.tree.map(lambda m, g: self.b1 * m + (1 - self.b1) * g, state.mu, grads)
        nu = jax.tree.map(lambda v, g: self.b2 * v + (1 - self.b2) * g * g, state.nu, grads)
        mu_hat_scale = 1.0 / (1.0 - self.b1**step)
        nu_hat_scale = 1.0 / (1.0 - self.b2**step)
        updates = jax.tree.map(
            lambda m, v: -self.lr * m * mu_hat_scale / (jnp.sqrt(v * nu_hat_scale) + self.eps),
            mu,
            nu,
        )
        return updates, AdamState(step, mu, nu)
