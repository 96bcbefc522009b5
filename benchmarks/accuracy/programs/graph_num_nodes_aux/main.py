"""Message passing over molecules whose edge lists are padded to a fixed size; the node count is static."""

import jax
import jax.numpy as jnp
import numpy as np

MAX_EDGES = 12


@jax.tree_util.register_pytree_node_class
class Graph:
    def __init__(self, senders, receivers, num_nodes):
        self.senders = senders
        self.receivers = receivers
        self.num_nodes = num_nodes

    def tree_flatten(self):
        return (self.senders, self.receivers), self.num_nodes

    @classmethod
    def tree_unflatten(cls, num_nodes, leaves):
        return cls(*leaves, num_nodes)


@jax.jit
def degree_centrality(graph):
    ones = jnp.ones(graph.senders.shape[0])
    degree = jax.ops.segment_sum(ones, graph.receivers, num_segments=graph.num_nodes)
    return degree.max() / graph.num_nodes


def padded_graph(edges, num_nodes):
    senders = np.full(MAX_EDGES, num_nodes - 1, np.int32)
    receivers = np.full(MAX_EDGES, num_nodes - 1, np.int32)
    senders[: len(edges)], receivers[: len(edges)] = zip(*edges)
    return Graph(senders, receivers, num_nodes)  # expect: RTL201


def score_dataset(molecules):
    return [float(degree_centrality(padded_graph(edges, n))) for edges, n in molecules]


if __name__ == "__main__":
    molecules = [([(0, 1), (1, 2)], 3), ([(0, 1), (1, 2), (2, 3)], 4), ([(0, 2), (1, 2)], 3)]
    print(score_dataset(molecules))
