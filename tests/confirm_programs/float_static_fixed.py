"""RTL202 negative: the learning rate is traced (a weak-typed float), so its value never matters."""

import jax
import jax.numpy as jnp


@jax.jit
def sgd(params, grads, lr):  # site: sgd
    return params - lr * grads


def main():
    params, grads = jnp.ones(4), jnp.full(4, 0.5)
    lr = 0.1
    for _ in range(3):
        params = sgd(params, grads, lr)  # finding: RTL202 site=sgd param=lr expect=not re-traced
        lr = lr * 0.9
    print("float_static_fixed done")


if __name__ == "__main__":
    main()
