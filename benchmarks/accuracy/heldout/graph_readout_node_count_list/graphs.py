"""Molecular graphs packed into fixed-size node buffers for a graph network."""

import numpy as np

MAX_NODES = 16
N_FEATURES = 4


def random_graphs(sizes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=(n, N_FEATURES)).astype(np.float32) for n in sizes]


def pack(graphs):
    """Greedily fill node budgets of MAX_NODES with whole graphs."""
    batch, used = [], 0
    for g in graphs:
        if used + g.shape[0] > MAX_NODES:
            yield batch
            batch, used = [], 0
        batch.append(g)
        used += g.shape[0]
    if batch:
        yield batch


def collate(batch):
    """Concatenate node features and pad them to the node budget; keep per-graph node counts."""
    nodes = np.concatenate(batch)
    nodes = np.pad(nodes, ((0, MAX_NODES - nodes.shape[0]), (0, 0)))
    n_node = [g.shape[0] for g in batch]  # expect: RTL403
    return nodes, n_node
