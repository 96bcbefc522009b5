"""Fit a linear model; the jitted step pins its outputs to the replicated sharding."""

import jax
import jax.numpy as jnp

import shard


@jax.jit
def train_step(params, x, y):
    grads = jax.grad(lambda p: jnp.mean((x @ p["w"] + p["b"] - y) ** 2))(params)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)
    return shard.replicate(params)


def init_params(dim):
    params = {"w": jnp.zeros((dim,)), "b": jnp.zeros(())}
    return jax.device_put(params, shard.REPLICATED)


def main(steps=4):
    x = jax.random.normal(jax.random.PRNGKey(0), (64, 3))
    y = x @ jnp.array([1.0, -2.0, 0.5]) + 0.3
    params = init_params(3)
    for _ in range(steps):
        params = train_step(params, x, y)
    print({k: v.round(3) for k, v in params.items()})


if __name__ == "__main__":
    main()
