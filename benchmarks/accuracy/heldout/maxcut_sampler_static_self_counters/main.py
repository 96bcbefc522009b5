"""Simulated-annealing Max-Cut sampler whose jitted methods take `self` as static.

The sampler keeps bookkeeping (sweep counter, best cut so far) on the instance, but
only plain Python methods touch it; the jitted methods read the graph, which is set
once in __init__, and everything that changes is passed as an argument.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def random_graph(n_nodes, p, seed):
    rng = np.random.default_rng(seed)
    upper = np.triu(rng.random((n_nodes, n_nodes)) < p, k=1)
    return (upper | upper.T).astype(np.float32)


class AnnealedMaxCutSampler:
    def __init__(self, adjacency, n_chains=16):
        self.adjacency = jnp.asarray(adjacency)
        self.n_nodes = adjacency.shape[0]
        self.n_chains = n_chains
        self.sweeps_done = 0
        self.best_cut = -np.inf
        self.history = []

    @partial(jax.jit, static_argnums=0)
    def cut_value(self, spins):
        # cut = sum over edges of (1 - s_i s_j) / 2; each edge appears twice in A
        return 0.25 * (self.adjacency.sum() - jnp.einsum("ci,ij,cj->c", spins, self.adjacency, spins))

    @partial(jax.jit, static_argnums=0)
    def sweep(self, spins, key, beta):
        def flip_one(carry, i):
            s, k = carry
            k, sub = jax.random.split(k)
            local = self.adjacency[i] @ s.T  # (chains,)
            delta = -2.0 * s[:, i] * local  # change in sum_ij A_ij s_i s_j, i.e. minus the cut gain
            accept = jax.random.uniform(sub, (self.n_chains,)) < jnp.exp(-beta * delta)
            s = s.at[:, i].set(jnp.where(accept, -s[:, i], s[:, i]))
            return (s, k), None

        (spins, _), _ = jax.lax.scan(flip_one, (spins, key), jnp.arange(self.n_nodes))
        return spins

    def record(self, spins):
        cuts = self.cut_value(spins)
        self.sweeps_done += 1
        self.best_cut = max(self.best_cut, float(cuts.max()))
        self.history.append(float(cuts.mean()))

    def anneal(self, key, betas):
        key, sub = jax.random.split(key)
        spins = jnp.where(jax.random.bernoulli(sub, 0.5, (self.n_chains, self.n_nodes)), 1.0, -1.0)
        for beta in betas:
            key, sub = jax.random.split(key)
            spins = self.sweep(spins, sub, float(beta))
            self.record(spins)
        return spins


if __name__ == "__main__":
    graph = random_graph(n_nodes=12, p=0.4, seed=3)
    sampler = AnnealedMaxCutSampler(graph)
    schedule = np.geomspace(0.2, 3.0, num=5)
    sampler.anneal(jax.random.PRNGKey(0), schedule)
    print(f"sweeps: {sampler.sweeps_done}, best cut: {sampler.best_cut:.1f}, "
          f"edges: {int(graph.sum() // 2)}")
    print("mean cut per sweep:", [round(c, 2) for c in sampler.history])
