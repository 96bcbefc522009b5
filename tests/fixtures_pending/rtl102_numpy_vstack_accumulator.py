"""A replay buffer grown with numpy (not jax.numpy) and handed to a jitted function every step.

numpy arrays are traced like jax arrays: each new row count is a new input shape.
"""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def summarise_history(history):
    return jnp.mean(history, axis=0), jnp.std(history, axis=0)


def replay(batches):
    buffer = np.zeros((0, 4), dtype=np.float32)
    out = []
    for batch in batches:
        buffer = np.vstack([buffer, batch])  # expect: RTL102
        out.append(summarise_history(buffer))
    return out


def concatenated(batches):
    seen = np.empty((0, 4), dtype=np.float32)
    for batch in batches:
        seen = np.concatenate([seen, batch])  # expect: RTL102
        summarise_history(seen)
    return seen


def main():
    batches = [np.ones((2, 4), dtype=np.float32)] * 5
    replay(batches)
    concatenated(batches)


if __name__ == "__main__":
    main()
