"""Fit a low-rank matrix in double precision with the SOAP-style optimizer."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp
import numpy as np

from soap import soap_init, soap_update


def loss_fn(w, a, b, target):
    return jnp.mean((a @ w @ b - target) ** 2)


@jax.jit
def optimizer_step(w, opt_state, a, b, target):
    loss, grad = jax.value_and_grad(loss_fn)(w, a, b, target)
    update, opt_state = soap_update(grad, opt_state)
    return w + update, opt_state, loss


def main(n_steps=30, seed=0):
    rng = np.random.default_rng(seed)
    a = jnp.asarray(rng.standard_normal((32, 6)))
    b = jnp.asarray(rng.standard_normal((5, 32)))
    target = a @ jnp.asarray(rng.standard_normal((6, 2)) @ rng.standard_normal((2, 5))) @ b
    w = jnp.zeros((6, 5))  # float64 under x64
    opt_state = soap_init(w)
    for _ in range(n_steps):
        w, opt_state, loss = optimizer_step(w, opt_state, a, b, target)
    print(f"loss {float(loss):.4f} ({w.dtype} parameters)")


if __name__ == "__main__":
    main()
