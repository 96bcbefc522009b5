"""Generate latents for a few prompts of different lengths."""

import jax
import jax.numpy as jnp

from pipeline import Pipeline
from transformer import init_params

PROMPTS = [
    [5, 17, 23, 8, 41, 9, 3, 77, 12],
    [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32],
    [64, 1, 33, 90, 27, 45, 11, 58, 71, 13, 36, 88],
]


def main():
    pipe = Pipeline(init_params(jax.random.PRNGKey(0)))
    key = jax.random.PRNGKey(1)
    for prompt in PROMPTS:
        key, sub = jax.random.split(key)
        latents = pipe(prompt, sub)
        print(f"prompt of {len(prompt)} tokens: latent norm {float(jnp.linalg.norm(latents)):.3f}")


if __name__ == "__main__":
    main()
