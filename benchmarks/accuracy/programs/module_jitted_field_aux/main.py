"""A forward-kinematics model module whose kinematics function is jitted when the module is built."""

import jax
import jax.numpy as jnp


def planar_arm(angles):
    cumulative = jnp.cumsum(angles, axis=-1)
    return jnp.stack([jnp.cos(cumulative).sum(-1), jnp.sin(cumulative).sum(-1)], axis=-1)


@jax.tree_util.register_pytree_node_class
class ArmModel:
    def __init__(self, params, kinematics):
        self.params = params
        self.forward = jax.jit(kinematics)  # expect: RTL204

    def __call__(self, t):
        return self.forward(jnp.tanh(t[:, None] * self.params))

    def tree_flatten(self):
        return (self.params,), self.forward

    @classmethod
    def tree_unflatten(cls, forward, leaves):
        model = object.__new__(cls)
        model.params, model.forward = leaves[0], forward
        return model


@jax.jit
def step(model, t, target):
    loss, grad = jax.value_and_grad(lambda m: jnp.mean((m(t) - target) ** 2))(model)
    return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, model, grad), loss


def fit(restarts=2, steps=3):
    t = jnp.linspace(0.0, 1.0, 8)
    target = planar_arm(jnp.stack([t, 0.5 * t], axis=-1))
    for seed in range(restarts):
        model = ArmModel(jax.random.normal(jax.random.PRNGKey(seed), (2,)), planar_arm)  # expect: RTL204
        for _ in range(steps):
            model, loss = step(model, t, target)
        print(seed, float(loss))


if __name__ == "__main__":
    fit()
