"""Translate a small batch of token sequences greedily."""

import jax
import jax.numpy as jnp

from generate import greedy_generate
from model import Seq2Seq


def main():
    model = Seq2Seq(jax.random.PRNGKey(0))
    source = jnp.array([[3, 5, 7, 2, 0], [4, 4, 9, 2, 0]], dtype=jnp.int32)
    print(greedy_generate(model, source))


if __name__ == "__main__":
    main()
