"""Per-graph energy: an MLP on every node, summed over each graph's nodes."""

import jax
import jax.numpy as jnp
from graphs import MAX_NODES


@jax.jit
def graph_energies(params, nodes, n_node):
    counts = jnp.stack(n_node)
    graph_ids = jnp.repeat(jnp.arange(len(n_node)), counts, total_repeat_length=MAX_NODES)
    node_mask = jnp.arange(MAX_NODES) < jnp.sum(counts)
    h = jax.nn.tanh(nodes @ params["w1"]) @ params["w2"]
    h = jnp.where(node_mask[:, None], h, 0.0)
    return jax.ops.segment_sum(h[:, 0], graph_ids, num_segments=len(n_node))
