"""A diagonal Gaussian evolution strategy with an ask/tell interface and a frozen state dataclass."""

import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class EvoState:
    mean: jax.Array
    sigma: jax.Array
    best_member: jax.Array
    best_fitness: jax.Array = jnp.finfo(jnp.float32).max  # expect: RTL402
    gen_counter: jax.Array = dataclasses.field(default_factory=lambda: jnp.zeros((), jnp.int32))


@dataclasses.dataclass(frozen=True)
class SimpleES:
    num_dims: int
    popsize: int = 16
    elite_ratio: float = 0.25
    sigma_init: float = 0.5

    def initialize(self, key):
        mean = jax.random.uniform(key, (self.num_dims,), jnp.float64, -1.0, 1.0)
        return EvoState(mean=mean, sigma=jnp.full((self.num_dims,), self.sigma_init, jnp.float64), best_member=mean)

    def ask(self, key, state):
        noise = jax.random.normal(key, (self.popsize, self.num_dims), jnp.float64)
        return state.mean + state.sigma * noise

    def tell(self, x, fitness, state):
        n_elite = max(1, int(self.popsize * self.elite_ratio))
        elite = x[jnp.argsort(fitness)[:n_elite]]
        best = jnp.argmin(fitness)
        improved = fitness[best] < state.best_fitness
        return dataclasses.replace(
            state,
            mean=elite.mean(axis=0),
            sigma=jnp.maximum(elite.std(axis=0), 1e-3),
            best_member=jnp.where(improved, x[best], state.best_member),
            best_fitness=jnp.where(improved, fitness[best], state.best_fitness),
            gen_counter=state.gen_counter + 1,
        )
