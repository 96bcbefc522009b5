"""Run a chain where each step returns the key the next step consumes."""

import jax
import jax.numpy as jnp
from kernel import init, rwm_step


def run_chain(seed, n_steps, step_size=0.5):
    key = jax.random.key(seed)
    state = init(jnp.zeros(3))
    step_size = jnp.float32(step_size)
    accepted, trace = 0, []
    for _ in range(n_steps):
        key, state, acc = rwm_step(key, state, step_size)
        accepted += int(acc)
        trace.append(state.position)
    return jnp.stack(trace), accepted / n_steps


if __name__ == "__main__":
    samples, rate = run_chain(seed=0, n_steps=8)
    print(samples.mean(axis=0), rate)
