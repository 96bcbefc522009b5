"""Block slices of a length read from data (sealed round 15's false alarm, issue 36): a loop
``for s in range(0, n, block)`` passing ``x[s:s + block]`` to a jit has a short last block only
when ``n`` is not a multiple of ``block``. Where the function stops unless it is (``assert n %
block == 0``, ``if n % block: raise``, through ``len(x)`` or ``x.shape[0]``) or makes it one
(``n = (n // block) * block``), every block is full and the jit traces once; where nothing says so
(or a remainder is only reported, ``if n % block: print(...)``), the finding stays. Projects
split over a package and a script that loads sequences from a file and attends over each."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_promoted_results import _found, _write

BLOCKS = {
    "attn/__init__.py": "",
    "attn/blocks.py": '''\
"""Blockwise attention over a long key/value sequence: one block of keys at a time."""

import jax
import jax.numpy as jnp


@jax.jit
def block_scores(q, k_block, v_block):
    w = jax.nn.softmax(q @ k_block.T / jnp.sqrt(q.shape[-1]), axis=-1)
    return w @ v_block


class BlockedAttention:
    def __init__(self, block):
        self.block = block

    def __call__(self, q, keys, values):
        n = keys.shape[0]
@GUARD@
        out = jnp.zeros((q.shape[0], values.shape[1]))
        for s in range(0, n, self.block):
            out = out + block_scores(q, keys[s : s + self.block], values[s : s + self.block])
        return out
''',
    "run.py": '''\
"""Read sequences from a file of arrays and attend over each."""

import sys

import jax.numpy as jnp
import numpy as np

from attn.blocks import BlockedAttention


def main(path):
    data = np.load(path)
    attention = BlockedAttention(block=64)
    q = jnp.ones((4, 16))
    for name in data.files:
        seq = jnp.asarray(data[name])
        print(name, attention(q, seq, seq).shape)


if __name__ == "__main__":
    main(sys.argv[1])
''',
}


def _project(tmp_path: Path, guard: str) -> Path:
    (tmp_path / "attn").mkdir(parents=True)
    return _write(tmp_path, BLOCKS, GUARD=guard)


@pytest.mark.parametrize(
    "guard",
    [
        "        assert n % self.block == 0, 'a sequence fills whole blocks'",
        "        if keys.shape[0] % self.block != 0:\n            raise ValueError('ragged sequence')",
        "        if len(keys) % self.block:\n            raise ValueError('ragged sequence')",
        "        n = (n // self.block) * self.block",
    ],
)
def test_blocks_proven_full_are_clean(tmp_path: Path, guard: str) -> None:
    assert _found(_project(tmp_path, guard)) == []


@pytest.mark.parametrize(
    "guard",
    [
        "        name = 'blocks'",
        "        if n % self.block:\n            print('the last block is short')",
        "        assert n % 2 == 0",
    ],
)
def test_blocks_of_unknown_length_are_found(tmp_path: Path, guard: str) -> None:
    line = 23 if "\n" in guard else 22
    assert _found(_project(tmp_path, guard)) == [("blocks.py", line, "RTL103")]
