"""Evaluate on the whole test set (23 examples) in batches of 8 without dropping the remainder."""

import jax
import numpy as np
from data import eval_batches
from model import eval_step, init


def evaluate(params, images, labels, batch_size=8):
    totals = {"correct": 0.0, "nll": 0.0, "count": 0.0}
    for batch in eval_batches(images, labels, batch_size):
        metrics = eval_step(params, *batch)
        for k in totals:
            totals[k] += float(metrics[k])
    return totals["correct"] / totals["count"], totals["nll"] / totals["count"]


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    images = rng.normal(size=(23, 4, 4)).astype(np.float32)
    labels = rng.integers(0, 3, size=23).astype(np.int32)
    params = init(jax.random.PRNGKey(0), 16, 3)
    accuracy, nll = evaluate(params, images, labels)
    print(f"accuracy {accuracy:.3f}, nll {nll:.3f}")
