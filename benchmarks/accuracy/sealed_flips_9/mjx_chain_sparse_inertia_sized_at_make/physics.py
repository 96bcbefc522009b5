"""A small articulated-chain simulator with a functional make_data / step API, as accelerated engines have."""

import dataclasses

import jax
import jax.numpy as jnp

GRAVITY = 9.81


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Model:
    link_mass: jax.Array
    link_length: jax.Array
    damping: jax.Array
    timestep: float = dataclasses.field(default=0.01, metadata=dict(static=True))

    @property
    def nv(self):
        return self.link_mass.shape[0]


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Data:
    time: jax.Array
    qpos: jax.Array
    qvel: jax.Array
    ctrl: jax.Array
    # Lower triangle of the joint-space inertia, row by row, as the sparse solver stores it.
    qM_sparse: jax.Array
    qfrc_bias: jax.Array


def make_model(n_links=4, mass=1.0, length=0.5, damping=0.05):
    return Model(
        link_mass=jnp.full((n_links,), mass, jnp.float32),
        link_length=jnp.full((n_links,), length, jnp.float32),
        damping=jnp.full((n_links,), damping, jnp.float32),
    )


def make_data(model):
    nv = model.nv
    return Data(
        time=jnp.zeros((), jnp.float32),
        qpos=jnp.linspace(0.1, 0.4, nv, dtype=jnp.float32),
        qvel=jnp.zeros((nv,), jnp.float32),
        ctrl=jnp.zeros((nv,), jnp.float32),
        # The sparse factors are filled in by the first step; the buffer has their size from the start.
        qM_sparse=jnp.zeros((nv * (nv + 1) // 2,), jnp.float32),
        qfrc_bias=jnp.zeros((nv,), jnp.float32),
    )


def _inertia(model, qpos):
    # Point masses at the link tips of a planar chain: M_ij = l_i l_j cos(q_i - q_j) sum_{k >= max(i, j)} m_k.
    nv = model.nv
    outboard = jnp.cumsum(model.link_mass[::-1])[::-1]
    idx = jnp.arange(nv)
    shared = outboard[jnp.maximum(idx[:, None], idx[None, :])]
    lengths = model.link_length[:, None] * model.link_length[None, :]
    return shared * lengths * jnp.cos(qpos[:, None] - qpos[None, :]) + 1e-3 * jnp.eye(nv)


def _lower_triangle(mat):
    rows, cols = jnp.tril_indices(mat.shape[0])
    return mat[rows, cols]


def _bias(model, data):
    outboard = jnp.cumsum(model.link_mass[::-1])[::-1]
    gravity = GRAVITY * outboard * model.link_length * jnp.sin(data.qpos)
    return gravity + model.damping * data.qvel


def step(model, data):
    inertia = _inertia(model, data.qpos)
    bias = _bias(model, data)
    qacc = jnp.linalg.solve(inertia, data.ctrl - bias)
    qvel = data.qvel + model.timestep * qacc
    qpos = data.qpos + model.timestep * qvel
    return dataclasses.replace(
        data,
        time=data.time + model.timestep,
        qpos=qpos,
        qvel=qvel,
        qM_sparse=_lower_triangle(inertia),
        qfrc_bias=bias,
    )
