"""A foraging gridworld with an explicit int32 dtype contract for its integer state."""

import dataclasses

import jax
import jax.numpy as jnp

MOVES = jnp.array([[0, 1], [1, 0], [0, -1], [-1, 0]], dtype=jnp.int32)
SIZE = 8


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class ForageState:
    pos: jax.Array
    food: jax.Array
    prev_action: jax.Array
    time: jax.Array


def reset(key):
    """Agent in a corner, food on random cells; integer leaves are int32 on every platform."""
    food = jax.random.bernoulli(key, 0.2, (SIZE, SIZE)).astype(jnp.float32)
    return ForageState(
        pos=jnp.zeros(2, dtype=jnp.int32),
        food=food,
        prev_action=jnp.zeros((), dtype=jnp.int32),  # expect: RTL402
        time=jnp.zeros((), dtype=jnp.int32),
    )


def observation(state):
    one_hot_prev = jax.nn.one_hot(state.prev_action, 4)
    local = jax.lax.dynamic_slice(jnp.pad(state.food, 1), state.pos, (3, 3)).ravel()
    return jnp.concatenate([local, one_hot_prev])


@jax.jit
def act_and_step(key, state, policy_w):
    """Sample an action from a linear softmax policy and move the agent; returns the next state."""
    logits = observation(state) @ policy_w
    action = jax.random.categorical(key, logits)  # expect: RTL402
    pos = jnp.clip(state.pos + MOVES[action], 0, SIZE - 1)
    reward = state.food[pos[0], pos[1]]
    food = state.food.at[pos[0], pos[1]].set(0.0)
    return ForageState(pos, food, action, state.time + 1), reward
