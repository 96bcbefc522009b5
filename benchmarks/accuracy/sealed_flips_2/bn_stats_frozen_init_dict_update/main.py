"""Train a batch-normalised MLP regressor, carrying parameters and running statistics in a train state."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from layers import BatchNormMLP

model = BatchNormMLP()


class TrainState(NamedTuple):
    params: object
    batch_stats: object


@jax.jit
def train_step(state, x, y, lr=0.05):
    def loss_fn(params):
        pred, updates = model.apply({"params": params, "batch_stats": state.batch_stats}, x, train=True)
        return jnp.mean((pred - y) ** 2), updates

    (loss, updates), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    params = jax.tree_util.tree_map(lambda p, g: p - lr * g, state.params, grads)
    return TrainState(params, updates["batch_stats"]), loss  # expect: RTL403


def batches(n=6, size=64, features=5, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        x = rng.normal(loc=3.0, size=(size, features)).astype(np.float32)
        yield jnp.asarray(x), jnp.asarray(np.tanh(x - 3.0).sum(axis=1))


def main():
    variables = model.init(jax.random.PRNGKey(0), jnp.zeros((1, 5)))
    state = TrainState(variables["params"], variables["batch_stats"])
    for x, y in batches():
        state, loss = train_step(state, x, y)
    print("loss", float(loss), "running mean", state.batch_stats["mean"][:3])


if __name__ == "__main__":
    main()
