import jax
import jax.numpy as jnp

from kernels import rwm_kernel_factory, update_chains


class RandomWalkSampler:
    def __init__(self, logpdf, num_chains):
        self.logpdf = logpdf
        self.num_chains = num_chains

    def init_state(self, key, dim):
        positions = jax.random.normal(key, (self.num_chains, dim))
        return positions, jax.vmap(self.logpdf)(positions)

    def run(self, key, state, step_size, num_steps):
        kernel_factory = rwm_kernel_factory(self.logpdf)  # expect: RTL204
        step = jnp.asarray(step_size, dtype=jnp.float32)
        rates = []
        for _ in range(num_steps):
            key, sub = jax.random.split(key)
            state, rate = update_chains(sub, kernel_factory, step, state)  # expect: RTL204
            rates.append(float(rate))
        return state, sum(rates) / len(rates)
