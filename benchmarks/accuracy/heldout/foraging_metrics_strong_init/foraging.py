"""A small level-based foraging grid: agents walk around and pick up the food they step on."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

GRID, N_AGENTS, N_FOOD, MAX_STEPS = 6, 2, 3, 4
MOVES = jnp.array([[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]], dtype=jnp.int32)
OBS_DIM = 2 + 2 * N_FOOD


class State(NamedTuple):
    agents: jax.Array  # (N_AGENTS, 2) int32 cells
    food: jax.Array  # (N_FOOD, 2) int32 cells
    food_left: jax.Array  # (N_FOOD,) bool
    step: jax.Array  # () int32


class TimeStep(NamedTuple):
    observation: jax.Array  # (N_AGENTS, OBS_DIM) float32
    reward: jax.Array  # () float32, shared by the team
    discount: jax.Array  # () float32
    extras: dict


def observe(state):
    food = jnp.where(state.food_left[:, None], state.food, -1).reshape(-1)
    shared = jnp.broadcast_to(food.astype(jnp.float32) / GRID, (N_AGENTS, food.shape[0]))
    return jnp.concatenate([state.agents.astype(jnp.float32) / GRID, shared], axis=-1)


def reset(key):
    cells = jax.random.choice(key, GRID * GRID, (N_AGENTS + N_FOOD,), replace=False)
    xy = jnp.stack([cells // GRID, cells % GRID], axis=-1).astype(jnp.int32)
    state = State(xy[:N_AGENTS], xy[N_AGENTS:], jnp.ones(N_FOOD, dtype=bool), jnp.zeros((), jnp.int32))
    reward, discount = jnp.zeros((), dtype=jnp.float32), jnp.ones((), dtype=jnp.float32)
    return state, TimeStep(observe(state), reward, discount, extras={})


def step(state, actions):
    agents = jnp.clip(state.agents + MOVES[actions], 0, GRID - 1)
    on_food = jnp.all(agents[:, None, :] == state.food[None, :, :], axis=-1)  # (agents, food)
    eaten = jnp.any(on_food, axis=0) & state.food_left
    state = State(agents, state.food, state.food_left & ~eaten, state.step + 1)
    done = (state.step >= MAX_STEPS) | ~jnp.any(state.food_left)
    reward = jnp.sum(eaten).astype(jnp.float32)
    return state, TimeStep(observe(state), reward, 1.0 - done.astype(jnp.float32), extras={})
