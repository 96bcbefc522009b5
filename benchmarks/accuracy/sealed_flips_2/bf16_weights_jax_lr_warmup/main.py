"""Train a bfloat16 linear regressor with SGD and a linear learning-rate warmup."""

import jax
import jax.numpy as jnp
import numpy as np

from schedule import linear_warmup

BASE_LR = jnp.array(0.05, dtype=jnp.bfloat16)


def mse(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y, lr):
    loss, grad = jax.value_and_grad(mse)(w, x, y)
    return w - lr * grad, loss


def batches(n=8, size=64, features=4, seed=0):
    rng = np.random.default_rng(seed)
    true_w = rng.normal(size=features)
    for _ in range(n):
        x = rng.normal(size=(size, features))
        yield jnp.asarray(x, jnp.bfloat16), jnp.asarray(x @ true_w, jnp.bfloat16)


def main(warmup_steps=4):
    w = jnp.zeros(4, jnp.bfloat16)
    for step, (x, y) in enumerate(batches()):
        w, loss = sgd_step(w, x, y, linear_warmup(BASE_LR, step, warmup_steps))
        print(step, float(loss))
    print("weights", w.dtype, w)


if __name__ == "__main__":
    main()
