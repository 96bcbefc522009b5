"""Full-dataset evaluation: pad the last batch up to the batch size, count only real rows."""

import numpy as np


def padded_batches(images, labels, batch_size):
    n = len(labels)
    for start in range(0, n, batch_size):
        x, y = images[start : start + batch_size], labels[start : start + batch_size]
        real = len(y)
        if real < batch_size:
            fill = batch_size - real
            x = np.concatenate([x, np.zeros((fill, *x.shape[1:]), x.dtype)])
            y = np.concatenate([y, np.zeros(fill, y.dtype)])
        mask = np.arange(batch_size) < real
        yield x, y, mask
