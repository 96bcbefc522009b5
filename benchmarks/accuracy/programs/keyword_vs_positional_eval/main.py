"""Train with SGD, reporting the training loss every epoch and the validation loss after it."""

import jax
import jax.numpy as jnp
import model
from evaluate import validation_loss


def fit(train, valid, epochs=3, lr=0.5):
    x, y = train
    params = model.init(x.shape[1])
    for epoch in range(epochs):
        params = model.sgd_step(params, x, y, lr)
        train_loss = float(model.loss(params, x, y))  # expect: RTL404
        print(epoch, train_loss, validation_loss(params, valid))
    return params


if __name__ == "__main__":
    k_train, k_valid = jax.random.split(jax.random.PRNGKey(0))
    x, x_valid = jax.random.normal(k_train, (20, 3)), jax.random.normal(k_valid, (20, 3))
    fit((x, (x[:, 0] > 0).astype(jnp.float32)), (x_valid, (x_valid[:, 0] > 0).astype(jnp.float32)))
