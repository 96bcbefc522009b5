"""Parameterised stochastic circuits: a fixed coupling topology, continuous biases and couplings."""

from functools import partial

import jax
import jax.numpy as jnp


class Circuit:
    """The topology of a p-bit circuit: how many nodes and which pairs are coupled."""

    def __init__(self, n_nodes, edges):
        self.n_nodes = n_nodes
        self.edges = tuple(edges)

    @property
    def n_params(self):
        return self.n_nodes + len(self.edges)


def ring(n):
    return [(i, (i + 1) % n) for i in range(n)]


@partial(jax.jit, static_argnames=("circuit", "n_sweeps"))
def sample_marginals(thetas, key, circuit, n_sweeps=16):
    """Gibbs-sample the circuit and return each node's probability of being +1."""
    n = circuit.n_nodes
    bias, couplings = thetas[:n], thetas[n:]
    J = jnp.zeros((n, n))
    for k, (a, b) in enumerate(circuit.edges):
        J = J.at[a, b].set(couplings[k]).at[b, a].set(couplings[k])

    def sweep(spins, k):
        field = bias + J @ spins
        up = jax.random.uniform(k, (n,)) < jax.nn.sigmoid(2.0 * field)
        spins = jnp.where(up, 1.0, -1.0)
        return spins, spins

    _, samples = jax.lax.scan(sweep, -jnp.ones(n), jax.random.split(key, n_sweeps))
    return (samples.mean(axis=0) + 1.0) / 2.0
