"""SGD with a linear warm-up followed by a cosine decay driven by the optimiser's step counter."""

import jax
import jax.numpy as jnp


def cosine_decay(count, peak, total):
    frac = jnp.minimum(count / total, 1.0)
    return peak * 0.5 * (1.0 + jnp.cos(jnp.pi * frac))


@jax.jit
def apply_update(params, x, y, lr):
    grads = jax.grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)
    return params - lr * grads


def fit(x, y, steps=12, warmup=4, peak=0.1):
    params = jnp.zeros(x.shape[1])
    count = jnp.zeros((), jnp.int32)
    for step in range(steps):
        if step < warmup:
            lr = peak * (step + 1) / warmup  # expect: RTL401
        else:
            lr = cosine_decay(count, peak, steps)
        params = apply_update(params, x, y, lr)
        count = count + 1
    return params


if __name__ == "__main__":
    x = jnp.linspace(-1.0, 1.0, 20).reshape(5, 4)
    print(fit(x, x.sum(axis=1)))
