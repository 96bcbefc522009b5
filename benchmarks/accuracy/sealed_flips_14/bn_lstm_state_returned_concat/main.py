"""Classify a batch of random sequences with a BN-LSTM."""

import jax
import jax.numpy as jnp

from cell import BNLSTMCell
from classifier import SequenceClassifier


def main():
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    cell = BNLSTMCell(num_inputs=5, num_units=8, key=k1)
    classifier = SequenceClassifier(cell, num_classes=3, key=k2)
    sequences = jax.random.normal(k3, (12, 4, 5))
    print(jnp.argmax(classifier.logits(sequences), axis=-1))


if __name__ == "__main__":
    main()
