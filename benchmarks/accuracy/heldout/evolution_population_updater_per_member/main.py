"""Truncation-selection evolution strategy for pendulum stabilisation gains."""

import jax
import jax.numpy as jnp

from population import Plant, make_member, mutate

POP_SIZE = 4
N_ELITE = 2
GENERATIONS = 3
SIGMA = jnp.float32(0.3)


def fitness(member, x0):
    return float(member.rollout(member.params, x0))


def evolve(plant, key):
    x0 = jnp.array([0.6, 0.0])
    key, init_key = jax.random.split(key)
    gains = jax.random.uniform(init_key, (POP_SIZE, 2), minval=0.5, maxval=6.0)
    population = [make_member(g, plant, 0) for g in gains]

    for gen in range(1, GENERATIONS + 1):
        scored = sorted(population, key=lambda m: fitness(m, x0))
        elite = scored[:N_ELITE]
        print(f"gen {gen}: best cost {fitness(elite[0], x0):.4f} "
              f"gains {[round(float(v), 2) for v in elite[0].params]}")
        children = []
        for _ in range(POP_SIZE - N_ELITE):
            key, sub = jax.random.split(key)
            child = mutate(sub, elite[0].params, elite[1].params, SIGMA)
            children.append(make_member(child, plant, gen))
        population = elite + children
    return min(population, key=lambda m: fitness(m, x0))


if __name__ == "__main__":
    best = evolve(Plant(mass=1.0, length=0.8, damping=0.1), jax.random.PRNGKey(3))
    print("best gains from generation", best.generation, best.params)
