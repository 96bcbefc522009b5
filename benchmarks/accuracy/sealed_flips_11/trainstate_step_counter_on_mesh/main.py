"""Fit a linear probe with a sharded train state on a one-axis data mesh."""

import jax
import jax.numpy as jnp

from state import init_state
from trainer import Trainer


def batches(n=5, batch=32, d_in=16, d_out=4):
    key = jax.random.PRNGKey(7)
    w_true = jax.random.normal(key, (d_in, d_out))
    for i in range(n):
        x = jax.random.normal(jax.random.PRNGKey(100 + i), (batch, d_in))
        yield x, x @ w_true


def main():
    mesh = jax.make_mesh((1,), ("data",))
    state = init_state(jax.random.PRNGKey(0), mesh)
    state = Trainer(mesh).fit(state, batches())
    print("final |w|", float(jnp.linalg.norm(state.params["w"])))


if __name__ == "__main__":
    main()
