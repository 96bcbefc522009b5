"""Score a corpus of short token sequences in batches of two."""

import jax
import model
from data import MAX_LEN, batches

CORPUS = [
    [1, 2, 3, 4, 5, 6, 7, 8],
    [2, 3, 4, 5, 6, 7, 8, 9],
    [1, 2, 3],
    [4, 5, 6, 7, 8, 9, 1, 2],
    [3, 3, 3, 3, 3, 3, 3, 3],
    [9, 8, 7, 6, 5, 4, 3, 2],
]


def score(params, corpus):
    return [model.forward(params, batch) for batch in batches(corpus, 2)]


if __name__ == "__main__":
    params = model.init(jax.random.PRNGKey(0), 16, MAX_LEN)
    print(score(params, CORPUS))
