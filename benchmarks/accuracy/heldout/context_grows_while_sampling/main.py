"""Continue two prompts with a tiny model."""

import jax
from decode import Sampler
from transformer import init

if __name__ == "__main__":
    sampler = Sampler(init(jax.random.PRNGKey(0)), temperature=0.8)
    for prompt in ([1, 2, 3], [4, 5, 6]):
        print(sampler.generate(prompt, new_tokens=4, key=jax.random.PRNGKey(1)))
