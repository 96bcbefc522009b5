"""Train a logistic classifier under a float16 compute policy."""

import jax
import jax.numpy as jnp

from data import device_batches, validation_split
from policy import Policy

policy = Policy()


@jax.jit
def loss_and_grad(params, x, y):
    def loss(p):
        logits = (x @ p["w"] + p["b"]).astype(jnp.float32)
        return jnp.mean(jnp.logaddexp(0.0, logits) - y * logits)

    return jax.value_and_grad(loss)(params)


def evaluate(params, x, y):
    loss, _ = loss_and_grad(policy.cast_to_compute(params), *policy.cast_to_compute((x, y)))
    return float(loss)


def main(lr=0.5):
    params = {"w": jnp.zeros(8, jnp.float32), "b": jnp.zeros((), jnp.float32)}
    x_val, y_val = validation_split()
    print("validation loss before training", evaluate(params, x_val, y_val))
    for x, y in device_batches():
        loss, grads = loss_and_grad(policy.cast_to_compute(params), *policy.cast_to_compute((x, y)))
        grads = policy.cast_to_param(grads)
        params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    print("validation loss after training", evaluate(params, x_val, y_val))


if __name__ == "__main__":
    main()
