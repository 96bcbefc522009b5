"""Reuse pretrained base weights and fit the head to a ferromagnetic target on random configurations."""

import jax
import jax.numpy as jnp

from model import LogCoshNet
from vmc import HeadFitDriver

N_SPINS, HIDDEN = 8, 16


def pretrained_base(key):
    return {"kernel": 0.05 * jnp.ones((N_SPINS, HIDDEN)) + 0.01 * jax.random.normal(key, (N_SPINS, HIDDEN))}


def random_spins(i, batch=32):
    return jnp.where(jax.random.bernoulli(jax.random.PRNGKey(i), 0.5, (batch, N_SPINS)), 1.0, -1.0)


def ferro_target(spins):
    return 0.5 * jnp.abs(jnp.sum(spins, axis=-1)) / N_SPINS


def main():
    model = LogCoshNet(N_SPINS, HIDDEN)
    variables = model.init(jax.random.PRNGKey(0))
    params = variables["params"].copy({"base": pretrained_base(jax.random.PRNGKey(1))})  # expect: RTL403
    driver = HeadFitDriver(model, params)
    loss = driver.run(random_spins, ferro_target, n_iter=6)
    print(f"final loss {loss:.5f}")


if __name__ == "__main__":
    main()
