"""A two-layer regressor trained with plain SGD; parameters are replicated over the data mesh."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def init_params(key, mesh, d_in=8, d_hidden=16):
    k1, k2 = jax.random.split(key)
    params = {
        "w1": 0.3 * jax.random.normal(k1, (d_in, d_hidden)),
        "w2": 0.3 * jax.random.normal(k2, (d_hidden, 1)),
    }
    return jax.device_put(params, NamedSharding(mesh, P()))


def loss_fn(params, x, y):
    h = jnp.tanh(x @ params["w1"])
    return jnp.mean((h @ params["w2"] - y) ** 2)


@jax.jit
def sgd_step(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), loss
