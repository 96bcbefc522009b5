"""A planar serial arm as a JAX pytree.

The kinematic description (link names, lengths, nominal masses) is static: it is
kept in the pytree's aux data and compared by value, like a parsed URDF. The
link masses used by the dynamics are a traced leaf, so a payload can be changed
without touching the description.
"""

import dataclasses

import jax
import jax.numpy as jnp

GRAVITY = 9.81


@dataclasses.dataclass(frozen=True)
class LinkSpec:
    name: str
    length: float
    mass: float


@dataclasses.dataclass(frozen=True)
class ArmDescription:
    name: str
    links: tuple  # tuple[LinkSpec, ...]

    @property
    def lengths(self):
        return tuple(link.length for link in self.links)


def parse_description(spec):
    """Build a description from a URDF-like dict; every call returns a new object."""
    links = tuple(LinkSpec(l["name"], float(l["length"]), float(l["mass"])) for l in spec["links"])
    return ArmDescription(spec["name"], links)


@jax.tree_util.register_pytree_node_class
class ArmModel:
    def __init__(self, description, link_masses):
        self.description = description
        self.link_masses = link_masses

    @classmethod
    def from_spec(cls, spec):
        description = parse_description(spec)
        masses = jnp.asarray([link.mass for link in description.links], dtype=jnp.float32)
        return cls(description, masses)

    def with_payload(self, payload_kg):
        return ArmModel(self.description, self.link_masses.at[-1].add(payload_kg))

    def tree_flatten(self):
        return (self.link_masses,), self.description

    @classmethod
    def tree_unflatten(cls, description, children):
        return cls(description, *children)

    @jax.jit
    def forward_kinematics(self, q):
        """Joint positions in the plane, (n_links + 1, 2), base at the origin."""
        angles = jnp.cumsum(q)
        lengths = jnp.asarray(self.description.lengths, dtype=q.dtype)
        steps = lengths[:, None] * jnp.stack([jnp.cos(angles), jnp.sin(angles)], axis=1)
        return jnp.concatenate([jnp.zeros((1, 2), q.dtype), jnp.cumsum(steps, axis=0)])

    @jax.jit
    def gravity_torques(self, q):
        """Torque each joint needs to hold the arm still against gravity."""
        joints = self.forward_kinematics(q)
        com_x = 0.5 * (joints[:-1, 0] + joints[1:, 0])
        weight = self.link_masses * GRAVITY
        # joint i carries every link from i outwards
        moment = weight * com_x
        outward = jnp.cumsum(moment[::-1])[::-1]
        joint_x = joints[:-1, 0]
        lever = jnp.cumsum(weight[::-1])[::-1] * joint_x
        return outward - lever
