"""Anneal a sampling temperature that is passed to the jitted sampler as a traced Python float."""

import jax
import jax.numpy as jnp


@jax.jit
def sample_tokens(key, logits, temperature):
    return jax.random.categorical(key, logits / temperature)


def anneal(logits, steps=6, start=2.0, decay=0.7):
    key = jax.random.PRNGKey(0)
    temperature = start
    tokens = []
    for _ in range(steps):
        key, sub = jax.random.split(key)
        tokens.append(sample_tokens(sub, logits, temperature))
        temperature = max(0.1, temperature * decay)
    return tokens


if __name__ == "__main__":
    print(anneal(jnp.linspace(-1.0, 1.0, 8)))
