"""Attribute domains and factors over them, the two data types of our marginal-based synthesizer."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class Domain:
    attrs: tuple[str, ...]
    shape: tuple[int, ...]
    labels: tuple[tuple[str, ...], ...] | None = None  # category names from the codebook, for reports

    def project(self, attrs):
        idx = [self.attrs.index(a) for a in attrs]
        labels = None if self.labels is None else tuple(self.labels[i] for i in idx)
        return Domain(tuple(attrs), tuple(self.shape[i] for i in idx), labels)

    def other_axes(self, attrs):
        return tuple(i for i, a in enumerate(self.attrs) if a not in attrs)

    def name_of(self, attr, code):
        if self.labels is None:
            return f"{attr}={code}"
        return f"{attr}={self.labels[self.attrs.index(attr)][code]}"


@jax.tree_util.register_pytree_node_class
class Factor:
    """A table of values over a domain; the domain rides along as static metadata."""

    def __init__(self, domain, values):
        self.domain = domain
        self.values = values

    @classmethod
    def zeros(cls, domain):
        return cls(domain, jnp.zeros(domain.shape, dtype=jnp.float32))

    def project(self, attrs):
        return Factor(self.domain.project(attrs), self.values.sum(axis=self.domain.other_axes(attrs)))

    def tree_flatten(self):
        return (self.values,), (self.domain,)  # expect: RTL201

    @classmethod
    def tree_unflatten(cls, aux, children):
        (domain,) = aux
        (values,) = children
        return cls(domain, values)
