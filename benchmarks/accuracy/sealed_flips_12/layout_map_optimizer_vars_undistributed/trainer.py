"""A stateless JAX trainer: model and optimizer variables go in and come out of one jitted step."""

import jax
import jax.numpy as jnp


class DenseClassifier:
    def __init__(self, d_in, classes, key):
        self.variables = {
            "kernel": 0.1 * jax.random.normal(key, (d_in, classes)),
            "bias": jnp.zeros((classes,)),
        }

    @staticmethod
    def apply(variables, x):
        return x @ variables["kernel"] + variables["bias"]


def _loss(trainable, x, y):
    logits = DenseClassifier.apply(trainable, x)
    return -jnp.mean(jnp.sum(y * jax.nn.log_softmax(logits), axis=-1))


def train_step(trainable, optimizer_vars, x, y, learning_rate):
    loss, grads = jax.value_and_grad(_loss)(trainable, x, y)
    momentum = {k: 0.9 * optimizer_vars[k] + grads[k] for k in trainable}
    trainable = {k: trainable[k] - learning_rate * momentum[k] for k in trainable}
    optimizer_vars = {**momentum, "iterations": optimizer_vars["iterations"] + 1}
    return trainable, optimizer_vars, loss


class JaxTrainer:
    def __init__(self, model, distribution, learning_rate):
        self.learning_rate = learning_rate
        self.trainable = distribution.distribute(model.variables)
        optimizer_vars = {k: jnp.zeros_like(v) for k, v in model.variables.items()}  # expect: RTL405
        optimizer_vars["iterations"] = jnp.zeros((), jnp.int32)  # expect: RTL405
        self.optimizer_vars = optimizer_vars  # expect: RTL405
        self._train_step = jax.jit(train_step)

    def fit_epoch(self, batches):
        for x, y in batches:
            self.trainable, self.optimizer_vars, loss = self._train_step(
                self.trainable, self.optimizer_vars, x, y, self.learning_rate
            )
        return loss
