"""Evaluate predictions with a named loss; the registry is rebuilt for every evaluation."""

import jax.numpy as jnp
from losses import make_losses


def evaluate(pred, target, name, weight=1.0):
    losses = make_losses(weight)
    return float(losses[name](pred, target))


def validation_curve(predictions, target):
    return [evaluate(p, target, "huber") for p in predictions]


if __name__ == "__main__":
    target = jnp.linspace(0.0, 1.0, 8)
    print(validation_curve([target + 0.1 * k for k in range(4)], target))
