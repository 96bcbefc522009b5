"""Adam on a small wavefunction-like model; the optimizer state is a (mu, nu, count) tuple."""

import jax
import jax.numpy as jnp

LR, B1, B2, EPS = 1e-2, 0.9, 0.999, 1e-8


def init_params(key, n_in=3, hidden=16):
    k1, k2 = jax.random.split(key)
    return {
        "w1": jax.random.normal(k1, (n_in, hidden), jnp.float32) / jnp.sqrt(n_in),
        "w2": jax.random.normal(k2, (hidden,), jnp.float32) / jnp.sqrt(hidden),
    }


def init_opt_state(params):
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    return zeros, zeros, jnp.zeros((), jnp.int32)


def log_psi(params, r):
    return jnp.tanh(r @ params["w1"]) @ params["w2"] - 0.5 * jnp.sum(r**2, axis=-1)


def energy(params, r):
    # A crude local-energy surrogate: harmonic potential plus a kinetic term from the gradient.
    grad_log = jax.vmap(jax.grad(log_psi, argnums=1), (None, 0))(params, r)
    return jnp.mean(0.5 * jnp.sum(grad_log**2, axis=-1) + 0.5 * jnp.sum(r**2, axis=-1))


@jax.jit
def train_step(params, opt_state, r):
    e, grads = jax.value_and_grad(energy)(params, r)
    mu, nu, count = opt_state
    count = count + 1
    mu = jax.tree_util.tree_map(lambda m, g: B1 * m + (1 - B1) * g, mu, grads)
    nu = jax.tree_util.tree_map(lambda v, g: B2 * v + (1 - B2) * g**2, nu, grads)
    c1, c2 = 1 - B1**count, 1 - B2**count
    params = jax.tree_util.tree_map(lambda p, m, v: p - LR * (m / c1) / (jnp.sqrt(v / c2) + EPS), params, mu, nu)
    return params, (mu, nu, count), e
