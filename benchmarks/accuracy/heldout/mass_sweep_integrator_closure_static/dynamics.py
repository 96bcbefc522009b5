"""A parametric arm (one revolute joint, a link and a payload) and a fixed-step integrator for it."""

import dataclasses
from functools import partial
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp

GRAVITY = 9.81


class ArmModel(NamedTuple):
    link_mass: jax.Array
    payload_mass: jax.Array
    length: jax.Array
    damping: jax.Array


class ArmState(NamedTuple):
    q: jax.Array
    qd: jax.Array


def joint_inertia(model):
    return (model.link_mass / 3.0 + model.payload_mass) * model.length**2


def system_dynamics(model, state, tau):
    gravity = (model.link_mass / 2.0 + model.payload_mass) * GRAVITY * model.length * jnp.sin(state.q)
    qdd = (tau - gravity - model.damping * state.qd) / joint_inertia(model)
    return state.qd, qdd


def wrap_system_dynamics_for_integration(model):
    """The dynamics the integrator calls: x' = f(x, u), specialised to one model."""

    def dynamics(state, tau):
        return system_dynamics(model, state, tau)

    return dynamics


@dataclasses.dataclass(frozen=True)
class SemiImplicitEuler:
    dynamics: Callable
    dt: float

    @classmethod
    def build(cls, dynamics, dt=0.01):
        return cls(dynamics=dynamics, dt=dt)

    def step(self, state, tau):
        _, qdd = self.dynamics(state, tau)
        qd = state.qd + self.dt * qdd
        return ArmState(q=state.q + self.dt * qd, qd=qd)


def mechanical_energy(model, state):
    kinetic = 0.5 * joint_inertia(model) * state.qd**2
    potential = -(model.link_mass / 2.0 + model.payload_mass) * GRAVITY * model.length * jnp.cos(state.q)
    return kinetic + potential


@partial(jax.jit, static_argnames=("integrator",))
def step(model, state, tau, integrator):
    new_state = integrator.step(state, tau)
    return new_state, mechanical_energy(model, new_state)
