"""Generate tokens from fixed logits while annealing the sampling temperature."""

import jax
import jax.numpy as jnp
import sampling


def generate(logits, steps=5):
    schedule = sampling.CosineTemperature(1.5, 0.5, steps)
    key = jax.random.PRNGKey(0)
    tokens = []
    for step in range(steps):
        key, sub = jax.random.split(key)
        tokens.append(int(sampling.draw(sub, logits, temperature=schedule.at(step))))  # expect: RTL202
    return tokens


if __name__ == "__main__":
    print(generate(jnp.linspace(-2.0, 2.0, 10)))
