"""RTL103 negative: the same loop with the short last batch dropped never re-traces."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def train_step(params, batch):  # site: train_step
    return params - 0.1 * batch.mean(axis=0)


def main():
    params = jnp.zeros(16)
    data = np.ones((50, 16), np.float32)
    for start in range(0, 50 - 16 + 1, 16):
        batch = data[
            start : start + 16
        ]  # finding: RTL103 site=train_step param=batch expect=not re-traced
        params = train_step(params, batch)
    print("shape_change_fixed done", float(params.sum()))


if __name__ == "__main__":
    main()
