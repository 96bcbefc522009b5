"""Fit a float32 MLP to a smooth target; the reference solution is computed in double precision."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402

from optimizers import adam  # noqa: E402

opt_init, opt_update, get_params = adam(1e-2)


def init_mlp(key, sizes=(2, 32, 1)):
    keys = jax.random.split(key, len(sizes) - 1)
    return [
        (jax.random.normal(k, (a, b), jnp.float32) / jnp.sqrt(a).astype(jnp.float32), jnp.zeros(b, jnp.float32))
        for k, a, b in zip(keys, sizes[:-1], sizes[1:])
    ]


def mlp(params, x):
    for w, b in params[:-1]:
        x = jnp.tanh(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def loss(params, x, y):
    return jnp.mean(jnp.square(mlp(params, x) - y))


@jax.jit
def update(i, opt_state, x, y):
    g = jax.grad(loss)(get_params(opt_state), x, y)
    return opt_update(i, g, opt_state)


def dataset(key, n=128):
    x64 = jax.random.uniform(key, (n, 2), jnp.float64, -1.0, 1.0)
    y64 = jnp.sin(3.0 * x64[:, :1]) * jnp.cos(2.0 * x64[:, 1:])
    return x64.astype(jnp.float32), y64.astype(jnp.float32)


def main():
    k_init, k_data = jax.random.split(jax.random.PRNGKey(0))
    x, y = dataset(k_data)
    opt_state = opt_init(init_mlp(k_init))
    for i in range(10):
        opt_state = update(i, opt_state, x, y)
    params = get_params(opt_state)
    print(f"loss {float(loss(params, x, y)):.4f}, weights {params[0][0].dtype}")


if __name__ == "__main__":
    main()
