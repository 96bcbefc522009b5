"""Stream batches of skewed features through a running normalizer."""

import jax
import jax.numpy as jnp

from normalizer import RunningNormalizer


def stream(n=5, batch=16, dim=3):
    for i in range(n):
        x = jax.random.normal(jax.random.PRNGKey(i), (batch, dim))
        yield jnp.exp(x) * jnp.array([1.0, 10.0, 100.0])


def main():
    norm = RunningNormalizer(dim=3)
    for i, batch in enumerate(stream()):
        norm.observe(batch)
        z = norm.normalize(batch)
        print(f"batch {i}: mean of normalized {jnp.round(z.mean(axis=0), 3)}")


if __name__ == "__main__":
    main()
