"""Train a tiny softmax regression with a compiled step that threads the optimizer state through."""

import jax
import jax.numpy as jnp

from model import init_params, loss_fn
from optimizers import RMSprop


def batches(n=5, batch=16, d=10, classes=3):
    for i in range(n):
        x = jax.random.normal(jax.random.PRNGKey(i), (batch, d))
        yield x, jnp.argmax(x[:, :classes], axis=-1)


def main():
    params = init_params(jax.random.PRNGKey(0), d=10, classes=3)
    optimizer = RMSprop(learning_rate=1e-2)

    @jax.jit
    def train_step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        params, opt_state = optimizer.apply_gradients(grads, params, opt_state)
        return params, opt_state, loss

    for i, (x, y) in enumerate(batches()):
        params, optimizer.state, loss = train_step(params, optimizer.state, x, y)
        print(f"step {i}: loss {float(loss):.4f}")


if __name__ == "__main__":
    main()
