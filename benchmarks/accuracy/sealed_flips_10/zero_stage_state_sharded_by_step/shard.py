"""Sharding helpers for a data-parallel trainer (one mesh axis; one CPU device in tests)."""

import jax
from jax.sharding import NamedSharding, PartitionSpec as P

MESH = jax.make_mesh((1,), ("data",))
REPLICATED = NamedSharding(MESH, P())


def replicate(tree):
    return jax.tree_util.tree_map(lambda x: jax.lax.with_sharding_constraint(x, REPLICATED), tree)  # expect: RTL405
