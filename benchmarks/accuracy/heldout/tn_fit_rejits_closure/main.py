"""Train in short rounds and look at the loss between rounds, as in a notebook."""

import jax
import numpy as np
from model import MPSModel

if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = rng.random((32, 6), dtype=np.float32)
    y = (x.mean(axis=1) > 0.5).astype(np.int32)
    model = MPSModel(jax.random.PRNGKey(0))
    for round_ in range(3):
        history = model.train(x, y, epochs=2)
        print(round_, [round(h, 4) for h in history])
