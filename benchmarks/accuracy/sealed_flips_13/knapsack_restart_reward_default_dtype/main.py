"""Roll out a random packing policy on a few knapsack instances."""

import jax

from actor import RandomActor
from knapsack import Knapsack


def main():
    env = Knapsack()
    reset, step = jax.jit(env.reset), jax.jit(env.step)
    actor = RandomActor(env.num_items)
    key = jax.random.PRNGKey(0)
    for episode in range(3):
        key, sub = jax.random.split(key)
        state, timestep = reset(sub)
        actor.observe(timestep)
        for _ in range(env.num_items):
            state, timestep = step(state, actor.act())
            actor.observe(timestep)
        print(f"episode {episode}: return {float(actor.stats['return']):.3f}")


if __name__ == "__main__":
    main()
