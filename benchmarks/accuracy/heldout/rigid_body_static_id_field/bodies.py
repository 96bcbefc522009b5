"""Rigid bodies of an assembly, registered as dataclass pytrees."""

from dataclasses import dataclass, field

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass
class Cylinder:
    mass: jax.Array
    radius: jax.Array
    length: jax.Array
    part_id: int = field(default=0, metadata={"static": True})  # expect: RTL201


def load_assembly(spec):
    """Bodies from a parts list of (mass, radius, length) rows, numbered in order."""
    return [
        Cylinder(jnp.float32(m), jnp.float32(r), jnp.float32(l), part_id=i)  # expect: RTL201
        for i, (m, r, l) in enumerate(spec)
    ]
