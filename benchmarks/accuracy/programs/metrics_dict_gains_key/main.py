"""Log reduced metrics every step; gradient norms are only logged once warm-up is over."""

import jax
import jax.numpy as jnp


@jax.jit
def reduce_logs(logs):
    return {name: jnp.mean(values) for name, values in logs.items()}


@jax.jit
def train_step(w, x, y):
    per_example = (x @ w - y) ** 2
    grad = jax.grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.1 * grad, per_example, jnp.abs(grad)


def train(x, y, steps=10, warmup=3):
    w = jnp.zeros(x.shape[1])
    history = []
    for step in range(steps):
        w, losses, grad_abs = train_step(w, x, y)
        logs = {"loss": losses}
        if step >= warmup:
            logs["grad_norm"] = grad_abs  # expect: RTL403
        history.append(reduce_logs(logs))
    return history


if __name__ == "__main__":
    x = jnp.linspace(0.0, 1.0, 30).reshape(10, 3)
    train(x, x @ jnp.array([1.0, -1.0, 2.0]))
