"""Accuracy over all 45 test images with batches of 8 (the last one holds 5)."""

import jax
import numpy as np
from batching import padded_batches
from metrics import init_params, masked_eval_step


def full_eval(params, images, labels, batch_size=8):
    correct = total = 0
    for x, y, mask in padded_batches(images, labels, batch_size):
        hits, count = masked_eval_step(params, x, y, mask)
        correct += int(hits)
        total += int(count)
    return correct / total


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    images = rng.random((45, 8, 8), dtype=np.float32)
    labels = rng.integers(0, 10, size=45).astype(np.int32)
    params = init_params(jax.random.PRNGKey(0))
    for round_ in range(2):
        print(round_, full_eval(params, images, labels))
