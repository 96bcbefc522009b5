"""A tiny MJX-style planar walker: an immutable Model of constants and a Data of state.

The layout follows the MJX tutorial: `make_model` / `make_data` build the pytrees once,
and `step` advances the state by one timestep of semi-implicit Euler.
"""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Model(NamedTuple):
    timestep: jax.Array
    mass: jax.Array
    stiffness: jax.Array
    damping: jax.Array
    gravity: jax.Array


class Data(NamedTuple):
    time: jax.Array
    qpos: jax.Array
    qvel: jax.Array
    ctrl: jax.Array


def make_model(n_joints: int, timestep: float = 0.002) -> Model:
    return Model(
        timestep=jnp.asarray(timestep, dtype=jnp.float32),
        mass=jnp.linspace(1.0, 2.0, n_joints, dtype=jnp.float32),
        stiffness=jnp.full((n_joints,), 40.0, dtype=jnp.float32),
        damping=jnp.full((n_joints,), 0.8, dtype=jnp.float32),
        gravity=jnp.asarray(-9.81, dtype=jnp.float32),
    )


def make_data(model: Model, qpos0) -> Data:
    n = model.mass.shape[0]
    return Data(
        time=0.0,  # expect: RTL401
        qpos=jnp.asarray(qpos0, dtype=jnp.float32),
        qvel=jnp.zeros((n,), dtype=jnp.float32),
        ctrl=jnp.zeros((n,), dtype=jnp.float32),
    )


def _forces(model: Model, data: Data) -> jax.Array:
    spring = -model.stiffness * data.qpos
    friction = -model.damping * data.qvel
    weight = model.mass * model.gravity * jnp.sin(data.qpos)
    return spring + friction + weight + data.ctrl


@jax.jit
def step(model: Model, data: Data) -> Data:
    qacc = _forces(model, data) / model.mass
    qvel = data.qvel + model.timestep * qacc
    qpos = data.qpos + model.timestep * qvel
    return data._replace(time=data.time + model.timestep, qpos=qpos, qvel=qvel)
