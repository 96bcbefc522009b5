"""A value with a length unit, registered as a pytree whose unit is static metadata."""

import jax
import jax.numpy as jnp

TO_NM = {"nm": 1.0, "angstrom": 0.1}


@jax.tree_util.register_pytree_node_class
class Length:
    def __init__(self, value, unit):
        self.value = value
        self.unit = unit

    def to(self, unit):
        return Length(self.value * (TO_NM[self.unit] / TO_NM[unit]), unit)

    def tree_flatten(self):
        return (self.value,), self.unit

    @classmethod
    def tree_unflatten(cls, unit, children):
        return cls(children[0], unit)


def load_positions(n_atoms, seed):
    """Atom positions as a structure file gives them, in angstrom, on a slightly jittered grid."""
    key = jax.random.PRNGKey(seed)
    side = round(n_atoms ** (1 / 3)) + 1
    grid = jnp.stack(jnp.meshgrid(*[jnp.arange(side)] * 3, indexing="ij"), -1).reshape(-1, 3)[:n_atoms]
    jitter = 0.3 * jax.random.normal(key, (n_atoms, 3))
    return Length((4.2 * grid + jitter).astype(jnp.float32), "angstrom")
