"""A small Lux-style grid game: units move over an energy field and gain or lose energy each turn."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

N_UNITS = 8
MAP = 12
MOVE_COST = 2
INITIAL_ENERGY = 100

# up, right, down, left, stay
DELTAS = jnp.array([[-1, 0], [0, 1], [1, 0], [0, -1], [0, 0]], jnp.int16)


class Units(NamedTuple):
    position: jax.Array  # int16[N_UNITS, 2]
    energy: jax.Array  # int16[N_UNITS]


class MapFeatures(NamedTuple):
    energy: jax.Array  # float32[MAP, MAP], a smooth field sampled from noise
    asteroid: jax.Array  # bool[MAP, MAP]


class EnvState(NamedTuple):
    units: Units
    map_features: MapFeatures
    step: jax.Array


def _energy_field(key):
    coarse = jax.random.normal(key, (MAP // 3, MAP // 3))
    return jax.image.resize(coarse, (MAP, MAP), "linear") * 3.0


@jax.jit
def reset(key):
    k_field, k_ast, k_pos = jax.random.split(key, 3)
    features = MapFeatures(_energy_field(k_field), jax.random.bernoulli(k_ast, 0.1, (MAP, MAP)))
    units = Units(
        position=jax.random.randint(k_pos, (N_UNITS, 2), 0, MAP).astype(jnp.int16),
        energy=jnp.full((N_UNITS,), INITIAL_ENERGY, dtype=jnp.int16),  # expect: RTL402
    )
    return EnvState(units, features, jnp.zeros((), jnp.int32))


@jax.jit
def step(state, actions):
    units, features = state.units, state.map_features
    target = jnp.clip(units.position + DELTAS[actions], 0, MAP - 1)
    blocked = features.asteroid[target[:, 0], target[:, 1]]
    position = jnp.where(blocked[:, None], units.position, target)
    moved = jnp.any(position != units.position, axis=1)
    gain = features.energy[position[:, 0], position[:, 1]]
    energy = units.energy - MOVE_COST * moved + gain  # expect: RTL402
    energy = jnp.clip(energy, 0, 400)
    new_units = Units(position, energy)
    return EnvState(new_units, features, state.step + 1), jnp.sum(energy > 0)
