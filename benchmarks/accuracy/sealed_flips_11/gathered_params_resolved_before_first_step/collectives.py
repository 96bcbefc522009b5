"""Asynchronous parameter gather: the result is a handle that is resolved where it is consumed."""

import jax


@jax.tree_util.register_pytree_node_class
class Pending:
    """A gathered value that may still be in flight; resolving it waits for the transfer."""

    def __init__(self, value):
        self.value = value

    def wait(self):
        return self.value

    def tree_flatten(self):
        return (self.value,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def resolve(x):
    return x.wait() if isinstance(x, Pending) else x


class ShardStore:
    """Holds the parameter shards of the workers and gathers them into full arrays."""

    def __init__(self, shards):
        self.shards = shards

    def all_gather(self):
        gathered = jax.tree.map(lambda *parts: jax.numpy.concatenate(parts, axis=0), *self.shards)
        return Pending(gathered)
