"""Train a small regressor with a TrainState in the style of Flax's, for a model-agnostic trainer."""

import jax
import jax.numpy as jnp

from state import TrainState
from train import make_step, mse


def data(n=5, batch=16, d=3):
    w = jnp.array([0.5, -1.0, 2.0])
    for i in range(n):
        x = jax.random.normal(jax.random.PRNGKey(i), (batch, d))
        yield x, x @ w


def main():
    params = {"w": jnp.zeros((3,)), "b": jnp.zeros(())}
    state = TrainState.create(params=params, learning_rate=0.1)
    step = make_step(mse)
    for x, y in data():
        state, loss = step(state, x, y)
        print(f"step {state.step}: loss {float(loss):.4f}")


if __name__ == "__main__":
    main()
