"""Tag a short stream of feature frames with a bfloat16 GRU."""

import jax

from cell import GRUCell
from tagger import StreamingTagger


def main():
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    cell = GRUCell(features=6, hidden=16, key=k1)
    tagger = StreamingTagger(cell, num_tags=4, key=k2)
    frames = jax.random.normal(k3, (10, 3, 6))
    print(tagger.tag(frames).T)


if __name__ == "__main__":
    main()
