"""A random actor that keeps episode statistics from the time steps it sees."""

import jax
import jax.numpy as jnp


def record(stats, timestep):
    first = timestep.step_type == 0
    episode_return = jnp.where(first, 0.0, stats["return"]) + timestep.reward
    return {
        "return": episode_return.astype(jnp.float32),
        "length": jnp.where(first, 0, stats["length"] + 1),
        "discounted": stats["discounted"] * 0.99 + timestep.reward * timestep.discount,
    }


class RandomActor:
    def __init__(self, num_actions, seed=0):
        self.num_actions = num_actions
        self.key = jax.random.PRNGKey(seed)
        self.stats = {"return": jnp.float32(0.0), "length": jnp.int32(0), "discounted": jnp.float32(0.0)}
        self._record = jax.jit(record)

    def observe(self, timestep):
        self.stats = self._record(self.stats, timestep)

    def act(self):
        self.key, sub = jax.random.split(self.key)
        return jax.random.randint(sub, (), 0, self.num_actions)
