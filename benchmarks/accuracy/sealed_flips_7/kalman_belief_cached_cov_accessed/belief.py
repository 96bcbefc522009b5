"""A Gaussian belief in information form whose covariance is computed lazily and cached."""

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class GaussianBelief:
    def __init__(self, mean, precision):
        self.mean = mean
        self.precision = precision

    @property
    def covariance(self):
        # Inverting the precision is the expensive part, so it is done once and kept on the object.
        if "_covariance" not in self.__dict__:
            self.__dict__["_covariance"] = jnp.linalg.inv(self.precision)
        return self.__dict__["_covariance"]

    def tree_flatten(self):
        return (self.mean, self.precision, self.__dict__.get("_covariance")), None  # expect: RTL403

    @classmethod
    def tree_unflatten(cls, aux, children):
        mean, precision, covariance = children
        belief = cls(mean, precision)
        if covariance is not None:
            belief.__dict__["_covariance"] = covariance
        return belief


def initial_belief(position, speed_sigma=2.0):
    """Constant-velocity prior around a first position fix."""
    mean = jnp.concatenate([position, jnp.zeros(2)])
    covariance = jnp.diag(jnp.array([1.0, 1.0, speed_sigma**2, speed_sigma**2]))
    belief = GaussianBelief(mean, jnp.linalg.inv(covariance))
    print(f"initial position uncertainty {float(jnp.trace(belief.covariance[:2, :2])):.2f}")  # expect: RTL403
    return belief
