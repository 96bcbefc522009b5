"""Sizes bucketed by a helper of the project, read from its body (issue 36, round 30's docking
chunks): a chunker that pads each contact count to a power of two (``while size < count: size *=
2``) or to an item of a table written out, returned as ``(start, size)`` pairs in a list of lists,
gives a jitted kernel a few static sizes and slice lengths however many poses are scored: warnings
that name the helper. The same chunker keeping each exact count stays an error. A helper named
``pad_size`` whose body returns ``n + 1`` keeps every size it is given: its pad stays an error,
whatever the name says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main

DOCKING = {
    "docking/__init__.py": "",
    "docking/chunks.py": '''\
"""Split contact counts into padded chunks so that the jitted kernels see few sizes."""

MIN_CHUNK = 2**10
MAX_CHUNK = 2**16


def chunk_one(count, offset):
    if count <= 0:
        return []
    if count > MAX_CHUNK:
        return [(offset, MAX_CHUNK)] + chunk_one(count - MAX_CHUNK, offset + MAX_CHUNK)
@CHUNK@
    return [(offset, size)]


def chunk_all(counts):
    chunks = []
    offset = 0
    for count in counts:
        chunks.append(chunk_one(int(count), offset))
        offset += int(count)
    return chunks
''',
    "docking/energy.py": """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("size",))
def pair_energy(size, distances):
    return jnp.sum(1.0 / distances[:size] ** 6)
""",
    "dock.py": """\
import sys

import jax.numpy as jnp
import numpy as np

from docking.chunks import chunk_all
from docking.energy import pair_energy


def score(distances, counts):
    padded = jnp.concatenate([distances, jnp.ones(2**16)])
    total = 0.0
    for i, group in enumerate(chunk_all(counts)):
        for start, size in group:
            total += float(pair_energy(size, padded[start : start + size]))
    return total


if __name__ == "__main__":
    data = np.load(sys.argv[1])
    for pose in range(10):
        print(score(data["distances"][pose], data["counts"][pose]))
""",
}

SERVING = {
    "serving/__init__.py": "",
    "serving/sizing.py": '''\
"""Sequence lengths for the jitted forward pass."""


def pad_size(n):
    return n + 1
''',
    "serving/engine.py": """\
import jax
import jax.numpy as jnp

from serving.sizing import pad_size


@jax.jit
def forward(tokens):
    return jnp.cumsum(tokens, axis=-1)


class Engine:
    def __init__(self, vocab):
        self.vocab = vocab

    def run(self, requests):
        outputs = []
        for request in requests:
            tokens = jnp.unique(request % self.vocab)
            size = pad_size(tokens.shape[0])
            padded = jnp.pad(tokens, (0, size - tokens.shape[0]), constant_values=-1)
            outputs.append(forward(padded))
        return outputs
""",
    "serve.py": """\
import sys

import numpy as np

from serving.engine import Engine


def main(path):
    requests = np.load(path)
    print(Engine(vocab=32000).run(requests))


if __name__ == "__main__":
    main(sys.argv[1])
""",
}


def _write(root: Path, files: dict[str, str], chunk: str = "") -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text.replace("@CHUNK@", chunk), encoding="utf-8")
    return root


def _found(root: Path) -> dict[tuple[str, int, str], tuple[str, str | None]]:
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", str(root)])
    return {
        (Path(f["path"]).name, f["line"], f["code"]): (f["severity"], f["bound"])
        for f in json.loads(result.stdout)
    }


@pytest.mark.parametrize(
    "chunk",
    [
        "    size = MIN_CHUNK\n    while size < count:\n        size *= 2",
        "    size = min(s for s in (1024, 4096, 16384, 65536) if s >= count)",
    ],
)
def test_chunks_padded_to_buckets_are_bounded(tmp_path: Path, chunk: str) -> None:
    bound = "bounded: `size` bucketed by `chunk_all`"
    # The static `size` is read off the same item as the slice: told by the slice's finding.
    assert _found(_write(tmp_path, DOCKING, chunk)) == {
        ("dock.py", 15, "RTL101"): ("warning", bound),
    }


def test_chunks_of_exact_counts_stay_errors(tmp_path: Path) -> None:
    assert _found(_write(tmp_path, DOCKING, "    size = count")) == {
        ("dock.py", 15, "RTL101"): ("error", None),
    }


def test_a_helper_named_as_a_bucket_that_keeps_every_size_is_no_bound(tmp_path: Path) -> None:
    assert _found(_write(tmp_path, SERVING)) == {("engine.py", 21, "RTL105"): ("error", None)}
