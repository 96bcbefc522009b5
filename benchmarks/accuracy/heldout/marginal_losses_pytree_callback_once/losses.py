"""Noisy marginal measurements of a tabular dataset and the losses built from them."""
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class MarginalLoss:
    """Squared error between a model marginal and a noisy measured marginal.

    The clique (which attributes the marginal is over) is static structure; the
    measured counts and the noise level are traced leaves, so new measurements
    of the same cliques reuse the compiled code.
    """

    def __init__(self, clique, measured, stddev):
        self.clique = clique
        self.measured = measured
        self.stddev = stddev

    def __call__(self, marginals):
        diff = marginals[self.clique] - self.measured
        return jnp.sum(diff**2) / (2.0 * self.stddev**2)

    def tree_flatten(self):
        return (self.measured, self.stddev), self.clique

    @classmethod
    def tree_unflatten(cls, clique, leaves):
        return cls(clique, *leaves)


def measure(key, true_marginals, cliques, stddev):
    losses = []
    for clique in cliques:
        key, sub = jax.random.split(key)
        truth = true_marginals[clique]
        noisy = truth + stddev * jax.random.normal(sub, truth.shape)
        losses.append(MarginalLoss(clique, noisy, jnp.asarray(stddev, jnp.float32)))
    return tuple(losses)


@jax.jit
def l1_gap(model, truth):
    return jnp.sum(jnp.abs(model - truth)) / jnp.sum(truth)


@jax.jit
def l2_gap(model, truth):
    return jnp.sqrt(jnp.sum((model - truth) ** 2))


METRICS = {"l1": l1_gap, "l2": l2_gap}
