"""Solver settings and state for a toy fixed-boundary equilibrium relaxation."""

from dataclasses import dataclass, field, replace

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class SolverRuntime:
    ns: int = field(metadata=dict(static=True))
    mpol: int = field(metadata=dict(static=True))
    block: int = field(metadata=dict(static=True))
    ftol: float = field(metadata=dict(static=True))  # expect: RTL202
    delt: jax.Array = field(default_factory=lambda: jnp.asarray(0.9, dtype=jnp.float32))


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class EquilibriumState:
    rmn: jax.Array
    zmn: jax.Array
    fsq: jax.Array


def default_runtime(ns=16, mpol=6):
    return SolverRuntime(ns=ns, mpol=mpol, block=25, ftol=1e-6)


def tightened(runtime, ftol):
    return replace(runtime, ftol=ftol)  # expect: RTL202


def initial_state(runtime, major_radius=10.0, minor_radius=1.0):
    s = jnp.linspace(0.0, 1.0, runtime.ns)[:, None]
    m = jnp.arange(runtime.mpol)[None, :]
    rmn = jnp.where(m == 0, major_radius, 0.0) + jnp.where(m == 1, minor_radius * jnp.sqrt(s), 0.0)
    zmn = jnp.where(m == 1, minor_radius * jnp.sqrt(s), 0.0)
    rmn = rmn + 0.05 * s * jnp.where(m == 2, 1.0, 0.0)
    return EquilibriumState(rmn=rmn, zmn=zmn, fsq=jnp.asarray(1.0, dtype=jnp.float32))
