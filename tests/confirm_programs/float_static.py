"""RTL202 positive: a decaying learning rate passed as a static float re-traces every step."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=2)
def sgd(params, grads, lr):  # site: sgd
    return params - lr * grads


def main():
    params, grads = jnp.ones(4), jnp.full(4, 0.5)
    lr = 0.1
    for _ in range(3):
        params = sgd(params, grads, lr)  # finding: RTL202 site=sgd param=lr expect=confirmed
        lr = lr * 0.9
    print("float_static done")


if __name__ == "__main__":
    main()
