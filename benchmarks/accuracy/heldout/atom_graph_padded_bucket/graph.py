"""Neighbour graphs of small molecules, padded to one fixed bucket."""

import numpy as np

MAX_NODES = 32


def neighbour_edges(positions, cutoff):
    d = np.linalg.norm(positions[:, None, :] - positions[None, :, :], axis=-1)
    senders, receivers = np.nonzero((d < cutoff) & (d > 0))
    return senders, receivers


def pad_graph(positions, cutoff, max_nodes=MAX_NODES):
    n = positions.shape[0]
    senders, receivers = neighbour_edges(positions, cutoff)
    max_edges = max_nodes * (max_nodes - 1)
    padded_pos = np.zeros((max_nodes, 3), dtype=np.float32)
    padded_pos[:n] = positions
    node_mask = np.arange(max_nodes) < n
    edge_s = np.full(max_edges, max_nodes - 1, dtype=np.int32)
    edge_r = np.full(max_edges, max_nodes - 1, dtype=np.int32)
    edge_s[: senders.size] = senders
    edge_r[: receivers.size] = receivers
    edge_mask = np.arange(max_edges) < senders.size
    return padded_pos, node_mask, edge_s, edge_r, edge_mask
