"""Minimise an ill-conditioned quadratic whose Cholesky-based fitness needs double precision."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402

from strategy import SimpleES  # noqa: E402

NUM_DIMS = 6


def make_problem(key):
    a = jax.random.normal(key, (NUM_DIMS, NUM_DIMS), jnp.float64)
    cov = a @ a.T + 1e-6 * jnp.eye(NUM_DIMS)
    return jnp.linalg.cholesky(cov), jnp.arange(NUM_DIMS, dtype=jnp.float64) / NUM_DIMS


def fitness_fn(chol, target, x):
    r = jax.scipy.linalg.solve_triangular(chol, x - target, lower=True)
    return jnp.sum(jnp.square(r))


strategy = SimpleES(num_dims=NUM_DIMS)


@jax.jit
def evaluate(chol, target, population):
    return jax.vmap(fitness_fn, in_axes=(None, None, 0))(chol, target, population)


@jax.jit
def es_ask(key, state):
    return strategy.ask(key, state)


@jax.jit
def es_tell(x, fitness, state):
    return strategy.tell(x, fitness, state)


def main(generations=12):
    key = jax.random.PRNGKey(0)
    key, k_problem, k_init = jax.random.split(key, 3)
    chol, target = make_problem(k_problem)
    state = strategy.initialize(k_init)
    for _ in range(generations):
        key, k_ask = jax.random.split(key)
        x = es_ask(k_ask, state)
        state = es_tell(x, evaluate(chol, target, x), state)
    print(f"generation {int(state.gen_counter)}: best fitness {float(state.best_fitness):.4g}")


if __name__ == "__main__":
    main()
