"""A tiny graph of simulation nodes: each node owns a few parameters and can
export them (and its dependencies' parameters) as one nested dict pytree."""

import jax.numpy as jnp


class Node:
    def __init__(self, name, **params):
        self.name = name
        self.params = {k: float(v) for k, v in params.items()}
        self.children = []

    def add(self, child):
        self.children.append(child)
        return self

    def build_pytree(self):
        tree = {self.name: {k: jnp.asarray(v) for k, v in self.params.items()}}
        for child in self.children:
            tree.update(child.build_pytree())
        return tree


def salt_like_source(t0, amplitude, stretch):
    return Node("source", t0=t0, amplitude=amplitude, stretch=stretch)


def host_dust(ebv):
    return Node("dust", ebv=ebv, r_v=3.1)
