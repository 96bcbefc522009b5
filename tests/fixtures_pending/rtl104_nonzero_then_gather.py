"""nonzero() gives index arrays whose length depends on the data; gathering with them keeps that length."""

import jax
import jax.numpy as jnp


@jax.jit
def embed(ids):
    return jnp.take(jnp.eye(512), ids, axis=0).sum(axis=0)


def active_tokens(batches):
    for ids in batches:
        (positions,) = jnp.nonzero(ids)  # expect: RTL104
        embed(ids[positions])


def active_rows(batches):
    for ids in batches:
        rows = jnp.nonzero(ids)[0]  # expect: RTL104
        embed(rows)


def main():
    active_tokens([jnp.arange(10), jnp.arange(3)])
    active_rows([jnp.arange(10), jnp.arange(3)])


if __name__ == "__main__":
    main()
