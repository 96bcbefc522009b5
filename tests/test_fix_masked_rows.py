"""RTL101/RTL102/RTL104/RTL105 fixed where the array enters the jitted function (issue 41): the jitted def
becomes a front of the same name that pads the array to a bucket of rows and calls the renamed body with
the count of real rows; reductions over the rows are made over the real ones, rows are sliced back. The
array may be made in another module and pass through a method or a helper: every call is padded. Refused,
saying where, when the body mixes the padding into a result otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest
from shape_pads import PADDED_ROWS
from test_fix_closures import fixed_once, lint, project

SCORING = '''\
"""Anomaly scores of a sensor against the readings kept so far."""

import jax
import jax.numpy as jnp


@jax.jit
def zscore_alarm(window, reading):
    """How far ``reading`` lies from the window, in standard deviations, and every row scaled."""
    centre = window.mean(axis=0)
    spread = jnp.std(window, axis=0) + 1e-3  # never zero
    scaled = (window - centre) / spread
    return jnp.max(jnp.abs(reading - centre) / spread), scaled
'''

BUFFER = '''\
"""Readings kept as they arrive."""

import jax.numpy as jnp


class ReadingBuffer:
    def __init__(self, first):
        self.rows = jnp.asarray(first)[None]

    def push(self, reading):
        self.rows = jnp.concatenate([self.rows, jnp.asarray(reading)[None]])
        return self.rows
'''

WATCH = """\
import json

import jax.numpy as jnp
from buffer import ReadingBuffer
from scoring import zscore_alarm


def watch(readings):
    buffer = ReadingBuffer(readings[0])
    scores = []
    for reading in readings[1:]:
        window = buffer.push(reading)
        score, scaled = zscore_alarm(window, reading)
        scores += [float(score), float(scaled[-1, 0]), len(scaled)]
    return scores


readings = [jnp.array([1.0, 2.0]) + jnp.array([0.1, -0.2]) * k + 0.05 * (k % 3) for k in range(9)]
with open(__file__.replace("main.py", "out.json"), "w") as out:
    json.dump(watch(readings), out)
"""

PAD = (
    PADDED_ROWS
    + '''\
def over_rows(reduce, x, valid, **options):
    """``reduce`` (a jax.numpy reduction) of ``x`` over its first ``valid`` rows alone: the rows
    after them are padding, which must not count."""
    x = jnp.asarray(x)
    keep = jnp.arange(x.shape[0]).reshape((-1,) + (1,) * (x.ndim - 1)) < valid
    if reduce in (jnp.max, jnp.min):
        # no value leaves a maximum as it is in every dtype: the first row, a real one, stands in
        return reduce(jnp.where(keep, x, x[:1]), **options)
    return reduce(x, where=jnp.broadcast_to(keep, x.shape), **options)


'''
)

SCORING_FIXED = (
    SCORING.replace("@jax.jit", PAD + "@jax.jit")
    .replace(
        "def zscore_alarm(window, reading):", "def zscore_alarm_padded(window, reading, *, valid):"
    )
    .replace("window.mean(axis=0)", "over_rows(jnp.mean, window, valid, axis=0)")
    .replace("jnp.std(window, axis=0)", "over_rows(jnp.std, window, valid, axis=0)")
    + '''

def zscore_alarm(window, reading):
    """zscore_alarm of window padded to a bucket of rows: one trace per bucket."""
    valid = len(window)
    result = zscore_alarm_padded(padded_rows(window), reading, valid=valid)
    return (result[0], result[1][:valid])
'''
)

EMBED = '''\
"""Sentence vectors: the mean of the word vectors, optionally scaled to unit length."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("normalise",))
def pooled_embedding(table, ids, normalise=True):
    pooled = jnp.mean(table[ids], axis=0)
    # a unit vector when asked for; the norm of a pooled vector is never zero here
    scale = jnp.where(normalise, 1.0 / (jnp.linalg.norm(pooled) + 1e-6), 1.0)
    return pooled * scale
'''

TOKENIZER = '''\
"""A whitespace tokenizer with a fixed vocabulary; unknown words are dropped."""

import numpy as np

VOCAB = {w: i for i, w in enumerate("the a cat dog sat on mat ran far away".split())}


def encode(text):
    words = np.array(text.lower().split())
    known = np.isin(words, list(VOCAB))
    return np.array([VOCAB[w] for w in words[known]], np.int32)
'''

PROMPTS = """\
import json

import jax
from embed import pooled_embedding
from tokenizer import VOCAB, encode

table = jax.random.normal(jax.random.PRNGKey(0), (len(VOCAB), 4))
prompts = ["the cat sat", "the dog ran far away", "a cat sat on the mat", "the big dog sat"]
vectors = [float(v) for p in prompts for v in pooled_embedding(table, encode(p), normalise=False)]
with open(__file__.replace("main.py", "out.json"), "w") as out:
    json.dump(vectors, out)
"""


def test_an_array_grown_by_a_method_of_another_module_is_padded_as_it_enters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    root = project(
        tmp_path, monkeypatch, {"scoring.py": SCORING, "buffer.py": BUFFER, "main.py": WATCH}
    )
    safe = lint("--fix", ".")
    assert "1 hidden fix can be enabled with the `--unsafe-fixes` option" in safe.output
    assert (root / "scoring.py").read_text() == SCORING
    # the reductions over the window count its real rows only; the scaled rows are sliced back
    assert fixed_once(root, "scoring.py") == SCORING_FIXED
    assert (root / "buffer.py").read_text() == BUFFER
    assert (root / "main.py").read_text() == WATCH


def test_a_mask_s_rows_are_padded_under_a_jit_with_static_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """RTL104: the words a mask keeps, gathered from a table and averaged; the decorator stays, and
    the static argument keeps its place."""
    files = {"embed.py": EMBED, "tokenizer.py": TOKENIZER, "main.py": PROMPTS}
    root = project(tmp_path, monkeypatch, files)
    assert fixed_once(root, "embed.py") == (
        EMBED.replace("@partial", PAD + "@partial")
        .replace(
            "def pooled_embedding(table, ids, normalise=True):",
            "def pooled_embedding_padded(table, ids, normalise=True, *, valid):",
        )
        .replace("jnp.mean(table[ids], axis=0)", "over_rows(jnp.mean, table[ids], valid, axis=0)")
        + '''

def pooled_embedding(table, ids, normalise=True):
    """pooled_embedding of ids padded to a bucket of rows: one trace per bucket."""
    valid = len(ids)
    return pooled_embedding_padded(table, padded_rows(ids), normalise, valid=valid)
'''
    )
    assert (root / "tokenizer.py").read_text() == TOKENIZER


@pytest.mark.parametrize(
    ("scaled", "why"),
    [
        ("spread @ window.T", "uses window.T at line 12"),  # the rows made columns
        ("window @ spread", "uses window @ spread at line 12"),  # a row each, or their sum: by rank
        ("jnp.cumsum(window, axis=0)", "uses jnp.cumsum at line 12"),  # each row from those above
        ("jnp.stack([window, window])", "uses [window, window] at line 12"),
        ("window * reading", "reads reading at line 12"),  # its rows may line up with the window's
        (
            "window + jnp.ones(window.shape[0] - 1).sum()",  # a shape: the real count is traced
            "uses the row count in jnp.ones(window.shape[0] - 1) at line 12",
        ),
        (
            "window / window.sum(axis=-1)",
            "uses window.sum(axis=-1) at line 12, along an axis that may be the rows",
        ),
    ],
)
def test_a_body_that_mixes_the_padding_into_its_result_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scaled: str, why: str
):
    scoring = SCORING.replace("(window - centre) / spread", scaled)
    files = {"scoring.py": scoring, "buffer.py": BUFFER, "main.py": WATCH}
    root = project(tmp_path, monkeypatch, files)
    result = lint("--fix", "--unsafe-fixes", ".")
    assert result.exit_code == 1
    assert (
        f"retracelint: buffer.py:11:21: RTL102 not fixed: zscore_alarm {why}, "
        "so padded rows would change its result"
    ) in result.output
    assert [(root / n).read_text() for n in files] == list(files.values())


FLEET = '''\
"""Covariance prediction of a robot fleet: P' = F P F^T + Q for every robot at once."""

import jax
import jax.numpy as jnp


@jax.jit
def predict_fleet(covs, F, Q):
    return jax.vmap(lambda P: F @ P @ F.T + Q)(covs)
'''

FLEETS = '''\
"""The fleets, each a stack of 6x6 pose covariances, one per robot."""

import jax.numpy as jnp

SIZES = {"warehouse": 3, "yard": 5, "dock": 8}


def covariances(n_robots):
    return jnp.tile(jnp.eye(6) * 0.01, (n_robots, 1, 1))
'''

PROPAGATE = """\
import jax.numpy as jnp
from fleets import SIZES, covariances
from predict import predict_fleet

F = jnp.eye(6).at[0:3, 3:6].set(0.1 * jnp.eye(3))
fleets = [covariances(n) for n in SIZES.values()]
for _ in range(3):
    fleets = [predict_fleet(covs, F, 1e-3 * jnp.eye(6)) for covs in fleets]
print([covs.shape for covs in fleets])
"""


def test_rows_mapped_one_by_one_are_sliced_back_with_no_count_passed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """``jax.vmap`` of a function of the rest gives a row per row: nothing is reduced, so the body
    keeps its signature and only the front knows the real count."""
    files = {"predict.py": FLEET, "fleets.py": FLEETS, "main.py": PROPAGATE}
    root = project(tmp_path, monkeypatch, files)
    assert fixed_once(root, "predict.py") == (
        FLEET.replace("@jax.jit", PADDED_ROWS + "@jax.jit").replace(
            "def predict_fleet(covs, F, Q):", "def predict_fleet_padded(covs, F, Q):"
        )
        + '''

def predict_fleet(covs, F, Q):
    """predict_fleet of covs padded to a bucket of rows: one trace per bucket."""
    valid = len(covs)
    return predict_fleet_padded(padded_rows(covs), F, Q)[:valid]
'''
    )


@pytest.mark.parametrize(
    ("scaled", "written"),
    [
        # a softmax over the rows counts the real ones only; a row by index counts from the real end
        ("jax.nn.softmax(window, axis=0)", "over_rows(jax.nn.softmax, window, valid, axis=0)"),
        ("window - window[-1]", "window - window[valid - 1]"),
        ("window.shape[0] * window", "valid * window"),  # the row count, in arithmetic
        ("jnp.sum(window, axis=1) * len(window)", "jnp.sum(window, axis=1) * valid"),
    ],
)
def test_what_counts_the_rows_counts_the_real_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scaled: str, written: str
):
    scoring = SCORING.replace("(window - centre) / spread", scaled)
    files = {"scoring.py": scoring, "buffer.py": BUFFER, "main.py": WATCH}
    root = project(tmp_path, monkeypatch, files)
    text = fixed_once(root, "scoring.py")
    assert f"    scaled = {written}\n" in text
    assert "    return (result[0], result[1][:valid])\n" in text  # rows, sliced back


MODEL = '''\
"""A one-layer attention model over the tokens so far: the last token attends to all of them."""

import jax
import jax.numpy as jnp


@jax.jit
def next_token_logits(params, tokens):
    h = params["embed"][tokens]
    attn = jax.nn.softmax(h @ h[-1])
    return (attn @ h) @ params["out"]
'''

DECODER = '''\
"""Greedy decoding: each token chosen is appended to the context."""

import jax.numpy as jnp
from model import next_token_logits


class Decoder:
    def __init__(self, params, prompt):
        self.params = params
        self.tokens = jnp.asarray(prompt, jnp.int32)

    def step(self):
        nxt = jnp.argmax(next_token_logits(self.params, self.tokens))
        self.tokens = jnp.concatenate([self.tokens, nxt[None].astype(jnp.int32)])
        return int(nxt)
'''

DECODE = """\
import json

import jax
from decoder import Decoder

k1, k2 = jax.random.split(jax.random.PRNGKey(0))
params = {"embed": jax.random.normal(k1, (11, 8)), "out": jax.random.normal(k2, (8, 11))}
decoder = Decoder(params, [1, 2, 3])
chosen = [decoder.step() for _ in range(6)]
with open(__file__.replace("main.py", "out.json"), "w") as out:
    json.dump(chosen, out)
"""


def test_token_ids_are_padded_for_the_ranks_the_attention_was_proved_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Token ids gathering vectors from a table: taken for one axis into two, which the front checks
    before it pads. The attention's softmax counts the real tokens, the last token is the last real
    one, and the weighted sum runs over the real rows."""
    files = {"model.py": MODEL, "decoder.py": DECODER, "main.py": DECODE}
    root = project(tmp_path, monkeypatch, files)
    assert fixed_once(root, "model.py") == MODEL.replace("@jax.jit", PAD + "@jax.jit").replace(
        """def next_token_logits(params, tokens):
    h = params["embed"][tokens]
    attn = jax.nn.softmax(h @ h[-1])
    return (attn @ h) @ params["out"]
""",
        '''def next_token_logits_padded(params, tokens, *, valid):
    h = params["embed"][tokens]
    attn = over_rows(jax.nn.softmax, h @ h[valid - 1], valid, axis=0)
    return (over_rows(jnp.sum, attn[:, None] * h, valid, axis=0)) @ params["out"]


def next_token_logits(params, tokens):
    """next_token_logits of tokens padded to a bucket of rows: one trace per bucket."""
    valid = len(tokens)
    if jnp.ndim(tokens) != 1 or jnp.ndim(params["embed"]) != 2:
        return next_token_logits_padded.__wrapped__(params, tokens, valid=valid)
    return next_token_logits_padded(params, padded_rows(tokens), valid=valid)
''',
    )
    assert (root / "decoder.py").read_text() == DECODER
