"""RTL105's fix for a batch padded to its own longest member (issue 41, unsafe): the longest length
rounded up to a power-of-two bucket where the padding function returns a mask of its padding; refused,
saying why, where it returns none or uses the length for anything else."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_fix_closures import codes, fixed_once, lint, project

BATCHING = '''\
"""Batches of token ids, each padded to its own longest sentence."""

import numpy as np


def pad_batch(sentences):
    longest = max(len(s) for s in sentences)
    ids = np.zeros((len(sentences), longest), np.int32)
    mask = np.zeros((len(sentences), longest), np.float32)
    for row, sentence in enumerate(sentences):
        ids[row, : len(sentence)] = sentence
        mask[row, : len(sentence)] = 1.0  # real tokens only
    return ids, mask


def batches(corpus, size):
    for start in range(0, len(corpus), size):
        yield pad_batch(corpus[start : start + size])
'''

MODEL = '''\
"""A bag-of-embeddings scorer that averages the real tokens of each sentence."""

import jax
import jax.numpy as jnp


@jax.jit
def score(table, ids, mask):
    emb = table[ids] * mask[..., None]
    return emb.sum(axis=(1, 2)) / jnp.maximum(mask.sum(axis=1), 1.0)
'''

MAIN = """\
import jax.numpy as jnp
import numpy as np
from batching import batches
from model import score


def score_corpus(table, corpus):
    return jnp.concatenate([score(table, ids, mask) for ids, mask in batches(corpus, 4)])


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    corpus = [list(rng.integers(1, 50, size=rng.integers(3, 12))) for _ in range(16)]
    print(score_corpus(jnp.asarray(rng.normal(size=(50, 8))), corpus))
"""

LENGTH = '''\
def padded_length(longest):
    """A padded length for a batch whose longest member is ``longest``: the next power of two
    of at least 16, so that batches of nearby lengths share one trace."""
    return max(16, 1 << (longest - 1).bit_length())


'''

# The same batches made by a class that marks its padding by comparing with the pad id.
REVIEWS = '''\
"""Review batches padded to their longest review with the pad id."""

import numpy as np

PAD_ID = 0


class ReviewBatcher:
    def __init__(self, encoded, batch_size=4):
        self.encoded = encoded
        self.batch_size = batch_size

    def _pad(self, chunk):
        longest = max(len(ids) for ids in chunk)
        tokens = np.full((len(chunk), longest), PAD_ID, dtype=np.int32)
        for row, ids in enumerate(chunk):
            tokens[row, : len(ids)] = ids
        return tokens, (tokens != PAD_ID).astype(np.float32)

    def __iter__(self):
        for start in range(0, len(self.encoded) - self.batch_size + 1, self.batch_size):
            yield self._pad(self.encoded[start : start + self.batch_size])
'''

TRAIN = """\
import jax.numpy as jnp
from model import score
from reviews import ReviewBatcher

ENCODED = [[3, 4, 5], [6, 7], [8, 9, 10, 11], [12], [4, 4, 4, 4, 4], [5, 6], [7], [8, 9, 3]]


def epoch(table, encoded):
    return [score(table, tokens, mask) for tokens, mask in ReviewBatcher(encoded)]


if __name__ == "__main__":
    print(epoch(jnp.ones((16, 4)), ENCODED))
"""


def test_a_batch_padded_to_its_longest_member_is_padded_to_a_bucket(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    root = project(
        tmp_path, monkeypatch, {"batching.py": BATCHING, "model.py": MODEL, "main.py": MAIN}
    )
    assert codes(".") == [("batching.py", "RTL105")]
    safe = lint("--fix", ".")
    assert "hidden fixes can be enabled with the `--unsafe-fixes` option" in safe.output
    assert (root / "batching.py").read_text() == BATCHING
    text = fixed_once(root, "batching.py")
    assert text == BATCHING.replace("def pad_batch", LENGTH + "def pad_batch").replace(
        "longest = max(len(s) for s in sentences)",
        "longest = padded_length(max(len(s) for s in sentences))",
    )
    assert (root / "main.py").read_text() == MAIN and (root / "model.py").read_text() == MODEL


def test_a_mask_made_by_comparing_with_the_pad_id_shows_the_padding_is_masked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    root = project(
        tmp_path, monkeypatch, {"reviews.py": REVIEWS, "model.py": MODEL, "main.py": TRAIN}
    )
    text = fixed_once(root, "reviews.py")
    assert "        longest = padded_length(max(len(ids) for ids in chunk))\n" in text
    assert text.count("def padded_length(longest):") == 1
    assert text.index("def padded_length") < text.index("class ReviewBatcher")


@pytest.mark.parametrize(
    ("change", "why"),
    [
        # no mask: the jitted function may count the padding (a scan over it, a mean)
        (
            ("    return ids, mask\n", "    return ids, ids.sum(axis=1)\n"),
            "pad_batch returns no mask of the padding beside it: longer padding could change "
            "what the jitted function computes",
        ),
        # the length itself reaches the result: a bucket would change it
        (
            ("    return ids, mask\n", "    return ids, mask * longest\n"),
            "longest is used at line 13 other than as the length of a padded array: "
            "a longer one would change it",
        ),
    ],
)
def test_padding_not_shown_to_be_masked_is_refused_with_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: tuple[str, str], why: str
):
    batching = BATCHING.replace(*change)
    root = project(
        tmp_path, monkeypatch, {"batching.py": batching, "model.py": MODEL, "main.py": MAIN}
    )
    result = lint("--fix", "--unsafe-fixes", ".")
    assert f"retracelint: batching.py:8:11: RTL105 not fixed: {why}" in result.output, result.output
    assert (root / "batching.py").read_text() == batching
