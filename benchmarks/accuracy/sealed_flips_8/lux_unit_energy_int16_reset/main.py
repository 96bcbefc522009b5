"""Play a few turns with a greedy-ish random policy and report how much energy the team holds."""

import jax
import jax.numpy as jnp

from env import N_UNITS, reset, step


@jax.jit
def policy(key, state):
    # Prefer standing still on rich cells, otherwise move at random.
    rich = state.map_features.energy[state.units.position[:, 0], state.units.position[:, 1]] > 1.0
    random_moves = jax.random.randint(key, (N_UNITS,), 0, 4)
    return jnp.where(rich, 4, random_moves)


def play(seed, turns=10):
    key = jax.random.PRNGKey(seed)
    key, k_reset = jax.random.split(key)
    state = reset(k_reset)
    for _ in range(turns):
        key, k_act = jax.random.split(key)
        state, alive = step(state, policy(k_act, state))
    return state, int(alive)


def main():
    for seed in range(2):
        state, alive = play(seed)
        print(f"game {seed}: {alive} units with energy, team energy {float(state.units.energy.sum()):.1f}")


if __name__ == "__main__":
    main()
