"""Molecular graphs collated into fixed-size padded batches."""

from typing import NamedTuple

import numpy as np

MAX_NODES = 16
MAX_EDGES = 32


class Graph(NamedTuple):
    num_nodes: int
    edges: list


class GraphBatch(NamedTuple):
    node_feats: np.ndarray
    senders: np.ndarray
    receivers: np.ndarray
    num_nodes: int


def collate(graphs, feature_dim=3):
    """Pads features and edges to MAX_NODES / MAX_EDGES; padded edges point past the last node."""
    feats = np.zeros((MAX_NODES, feature_dim), np.float32)
    senders = np.full(MAX_EDGES, MAX_NODES, np.int32)
    receivers = np.full(MAX_EDGES, MAX_NODES, np.int32)
    offset, e = 0, 0
    for g in graphs:
        feats[offset : offset + g.num_nodes] = 1.0 + offset
        for s, r in g.edges:
            senders[e], receivers[e] = s + offset, r + offset
            e += 1
        offset += g.num_nodes
    return GraphBatch(feats, senders, receivers, num_nodes=offset)
