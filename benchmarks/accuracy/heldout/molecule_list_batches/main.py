"""Message passing over several molecules per step, each kept as its own matrices in a list."""

import jax
import jax.numpy as jnp
from featurize import FEATURES, batches


@jax.jit
def graph_readouts(params, adjacencies, features):
    outputs = []
    for a, f in zip(adjacencies, features):
        h = jnp.tanh(a @ f @ params["w"] + params["b"])
        outputs.append(jnp.sum(h))
    return jnp.stack(outputs)


def chain(n):
    return n, [(i, i + 1) for i in range(n - 1)]


if __name__ == "__main__":
    params = {"w": jnp.ones((FEATURES, 2)) * 0.1, "b": jnp.zeros(2)}
    molecules = [chain(3), chain(4), chain(3), chain(5), chain(4), chain(3)]
    for adjacencies, features in batches(molecules, batch_size=2):
        print(graph_readouts(params, adjacencies, features))
