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
        ("jnp.cumsum(window, axis=0)", "uses jnp.cumsum at line 12"),  # each row from those above
        ("jnp.stack([window, window])", "uses [window, window] at line 12"),
        (
            "window + jnp.ones(window.shape[0] - 1).sum()",  # a shape: the real count is traced
            "uses the row count in jnp.ones(window.shape[0] - 1) at line 12",
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


REGRESSION = '''\
"""One effect's regression on the samples kept."""

import jax
import jax.numpy as jnp


@jax.jit
def effect(X, y, prior):
    Xc = X - X.mean(axis=0)
    yc = y - y.mean()
    beta = Xc.T @ yc / (jnp.sum(Xc**2, axis=0) + 1e-6)
    return beta * prior / (prior + 1.0)
'''

SAMPLES = """\
import json

import numpy as np
from regression import effect

rng = np.random.default_rng(0)
X, y = rng.normal(size=(24, 3)).astype(np.float32), rng.normal(size=24).astype(np.float32)
out = []
for cut in (1.0, 0.5, 0.0):  # at most 16 rows kept: one bucket
    keep = X[:, 0] > cut
    out += [float(b) for b in effect(X[keep], y[keep], 2.0)]
with open(__file__.replace("main.py", "out.json"), "w") as out_file:
    json.dump(out, out_file)
"""

REAL_ROWS = '''\
def real_rows(x, valid):
    """``x`` with its rows after the first ``valid`` made zeros: padding, which must add
    nothing to a sum over the rows (a matrix product that runs over them)."""
    x = jnp.asarray(x)
    keep = jnp.arange(x.shape[0]).reshape((-1,) + (1,) * (x.ndim - 1)) < valid
    return jnp.where(keep, x, jnp.zeros((), x.dtype))


'''


def test_a_sum_over_the_rows_of_two_arguments_pads_both_and_zeroes_the_padding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """``Xc.T @ yc`` runs over the rows of X and of y, cut by the same mask in another module: X is
    taken for a matrix of rows and y for rows of the same count (it is reduced over them), both
    padded, the padding zeroed in the product; the front checks both before it pads. The prior
    never meets the rows: passed as it is."""
    root = project(tmp_path, monkeypatch, {"regression.py": REGRESSION, "main.py": SAMPLES})
    assert fixed_once(root, "regression.py") == REGRESSION.replace(
        "@jax.jit", PAD + REAL_ROWS + "@jax.jit"
    ).replace(
        """def effect(X, y, prior):
    Xc = X - X.mean(axis=0)
    yc = y - y.mean()
    beta = Xc.T @ yc / (jnp.sum(Xc**2, axis=0) + 1e-6)
    return beta * prior / (prior + 1.0)
""",
        '''def effect_padded(X, y, prior, *, valid):
    Xc = X - over_rows(jnp.mean, X, valid, axis=0)
    yc = y - over_rows(jnp.mean, y, valid)
    beta = real_rows(Xc, valid).T @ real_rows(yc, valid) / (over_rows(jnp.sum, Xc**2, valid, axis=0) + 1e-6)
    return beta * prior / (prior + 1.0)


def effect(X, y, prior):
    """effect of X padded to a bucket of rows: one trace per bucket."""
    valid = len(X)
    if jnp.ndim(X) != 2 or jnp.shape(y)[:1] != (valid,):
        return effect_padded.__wrapped__(X, y, prior, valid=valid)
    return effect_padded(padded_rows(X), padded_rows(y), prior, valid=valid)
''',
    )
    assert (root / "main.py").read_text() == SAMPLES


RATING = '''\
"""Rating of one player against the opponents met in a period (Elo, on a logistic curve)."""

import jax
import jax.numpy as jnp

SCALE = jnp.log(10.0) / 400.0


def expected_score(own, others):
    return 1.0 / (1.0 + jnp.exp(-SCALE * (own - others)))


@jax.jit
def rate(own, others, results, k):
    expected = expected_score(own, others)
    return own + k * jnp.sum(results - expected)
'''

LEAGUE = '''\
"""The games of a period, as the arrays the rating update takes."""

import jax.numpy as jnp


def opponents_of(player, games, ratings):
    met = [(b, 1.0) if a == player else (a, 0.0) for a, b in games if player in (a, b)]
    others = jnp.array([ratings[name] for name, _ in met])
    results = jnp.array([score for _, score in met])
    return others, results
'''

PERIODS = """\
import json

import jax.numpy as jnp
from league import opponents_of
from rating import rate

PERIODS = [
    [("ana", "ben"), ("ana", "cleo")],
    [("cleo", "ana"), ("ben", "dev"), ("cleo", "dev"), ("ana", "dev")],
    [("dev", "ana")],
]
ratings = {name: jnp.float32(1500.0 + 10 * i) for i, name in enumerate(["ana", "ben", "cleo", "dev"])}
for games in PERIODS:
    for player in list(ratings):
        others, results = opponents_of(player, games, ratings)
        if len(others):
            ratings[player] = rate(ratings[player], others, results, 32.0)
with open(__file__.replace("main.py", "out.json"), "w") as out:
    json.dump({name: float(r) for name, r in ratings.items()}, out)
"""


def test_other_arguments_are_given_the_role_the_body_can_be_followed_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The player's own rating meets the opponents' in a function of the module, beside a number
    constant: taken for fewer axes (as rows, the new rating would be rows); the results, used element
    by element alone, may be either: padded when they have the opponents' rank and count. k meets
    no rows. A second run refuses: the opponents are padded already."""
    files = {"rating.py": RATING, "league.py": LEAGUE, "main.py": PERIODS}
    root = project(tmp_path, monkeypatch, files)
    assert lint("--fix", "--unsafe-fixes", ".").exit_code == 1  # the fallback's call is still told
    text = (root / "rating.py").read_text()
    assert text == RATING.replace("@jax.jit", PAD + "@jax.jit").replace(
        """def rate(own, others, results, k):
    expected = expected_score(own, others)
    return own + k * jnp.sum(results - expected)
""",
        '''def rate_padded(own, others, results, k, *, valid):
    expected = expected_score(own, others)
    return own + k * over_rows(jnp.sum, results - expected, valid)


def rate(own, others, results, k):
    """rate of others padded to a bucket of rows: one trace per bucket."""
    valid = len(others)
    if jnp.ndim(own) >= jnp.ndim(others) or jnp.ndim(results) > jnp.ndim(others):
        return rate_padded.__wrapped__(own, others, results, k, valid=valid)
    results = padded_rows(results) if jnp.ndim(results) == jnp.ndim(others) and jnp.shape(results)[:1] == (valid,) else results
    return rate_padded(own, padded_rows(others), results, k, valid=valid)
''',
    )
    again = lint("--fix", "--unsafe-fixes", ".")
    assert "RTL104 not fixed: the array is padded to a bucket already" in again.output
    assert (root / "rating.py").read_text() == text
    assert [(root / n).read_text() for n in ("league.py", "main.py")] == [LEAGUE, PERIODS]


HISTOGRAMS = '''\
"""How far a recorded segment's histogram lies from the reference's."""

import jax
import jax.numpy as jnp


@jax.jit
def histogram_distance(counts, reference):
    p = counts / jnp.maximum(counts.sum(), 1.0)
    q = reference / jnp.maximum(reference.sum(), 1.0)
    return jnp.sqrt(jnp.sum((p - q) ** 2))
'''

SEGMENTS = '''\
"""A recording cut into segments of a fixed width, the last one as long as what is left."""


def segments(recording, width):
    for start in range(0, len(recording), width):
        yield start, recording[start : start + width]
'''

GRADES = """\
import json

import numpy as np
from metrics import histogram_distance
from segments import segments

rng = np.random.default_rng(0)
recording = rng.poisson(3.0, size=70).astype(np.float32)
reference = rng.poisson(3.0, size=70).astype(np.float32)
grades = [
    float(histogram_distance(segment, reference[start : start + len(segment)]))
    for start, segment in segments(recording, 16)
]
with open(__file__.replace("main.py", "out.json"), "w") as out:
    json.dump(grades, out)
"""


def test_short_last_chunks_a_generator_makes_are_padded_as_they_enter_the_jitted_function(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """RTL103 where the chunks come from a generator of another module: no loader option, no call
    passing the chunk to pad; padded as they enter the jitted function, to the bucket the full ones
    share. The reference, cut to the segment's length and reduced over its rows, is rows too."""
    files = {"metrics.py": HISTOGRAMS, "segments.py": SEGMENTS, "main.py": GRADES}
    root = project(tmp_path, monkeypatch, files)
    assert fixed_once(root, "metrics.py") == HISTOGRAMS.replace(
        "@jax.jit", PAD + "@jax.jit"
    ).replace(
        """def histogram_distance(counts, reference):
    p = counts / jnp.maximum(counts.sum(), 1.0)
    q = reference / jnp.maximum(reference.sum(), 1.0)
    return jnp.sqrt(jnp.sum((p - q) ** 2))
""",
        '''def histogram_distance_padded(counts, reference, *, valid):
    p = counts / jnp.maximum(over_rows(jnp.sum, counts, valid), 1.0)
    q = reference / jnp.maximum(over_rows(jnp.sum, reference, valid), 1.0)
    return jnp.sqrt(over_rows(jnp.sum, (p - q) ** 2, valid))


def histogram_distance(counts, reference):
    """histogram_distance of counts padded to a bucket of rows: one trace per bucket."""
    valid = len(counts)
    if jnp.shape(reference)[:1] != (valid,):
        return histogram_distance_padded.__wrapped__(counts, reference, valid=valid)
    return histogram_distance_padded(padded_rows(counts), padded_rows(reference), valid=valid)
''',
    )
    assert [(root / n).read_text() for n in ("segments.py", "main.py")] == [SEGMENTS, GRADES]


@pytest.mark.parametrize(
    ("body", "why"),
    [
        # a column of rows of a rank unknown: the prior's cannot be checked against it
        (
            "return jnp.cumsum(X[:, 0] * prior)",
            "combines its rows with prior at line 13, whose axes the front cannot line up with them",
        ),
        # a function of the module that reduces the rows would have to count the real ones
        (
            "return centred(X) * prior",
            "calls centred at line 13, which reduces its rows or gives several values: its own "
            "body would have to count the real ones",
        ),
        # a transposed array of three axes or more: not a sum over the rows alone
        ("return X.T @ X[:, :, None]", "uses X.T @ X[:, :, None] at line 13, over rows of more"),
    ],
)
def test_what_the_roles_and_sums_cannot_keep_apart_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, why: str
):
    regression = REGRESSION.replace(
        """def effect(X, y, prior):
    Xc = X - X.mean(axis=0)
    yc = y - y.mean()
    beta = Xc.T @ yc / (jnp.sum(Xc**2, axis=0) + 1e-6)
    return beta * prior / (prior + 1.0)
""",
        f"""def effect(X, y, prior, w=jnp.ones(3)):
    {body}
""",
    ).replace("@jax.jit", "def centred(x):\n    return x - x.mean(axis=0)\n\n\n@jax.jit")
    # y is cut to the same rows by the program, but the jitted body is told of X's alone
    files = {"regression.py": regression, "main.py": SAMPLES.replace("y[keep]", "y[:3]")}
    root = project(tmp_path, monkeypatch, files)
    result = lint("--fix", "--unsafe-fixes", ".")
    assert f"RTL104 not fixed: effect {why}" in result.output
    assert [(root / n).read_text() for n in files] == list(files.values())


WAVEFORM = '''\
"""A frequency-domain chirp template and the noise-weighted overlap of two spectra."""

import jax
import jax.numpy as jnp

MTSUN = 4.925491e-6  # a solar mass in seconds


@jax.jit
def template(freqs, params):
    mass, phase0 = params
    amplitude = 1e3 * (mass * MTSUN) ** (5.0 / 6.0) * freqs ** (-7.0 / 6.0)
    return amplitude * jnp.cos(2.0 * jnp.pi * freqs * mass * 1e-3 + phase0)


@jax.jit
def overlap(h, d, psd, df):
    return 4.0 * df * jnp.sum(h * d / psd)
'''

EVENTS = '''\
"""Events seen for a few seconds each: the longer, the finer their frequency grid."""

import jax.numpy as jnp


class Event:
    def __init__(self, duration, params):
        self.duration = duration
        self.params = params

    def grid(self):
        return jnp.arange(20.0, 24.0, 1.0 / self.duration)
'''

SPECTRA = """\
import json

import jax.numpy as jnp
from events import Event
from waveform import overlap, template

events = [Event(1.0, jnp.array([1.2, 0.0])), Event(2.0, jnp.array([1.4, 0.5])), Event(3.0, jnp.array([1.1, 1.0]))]
scores = []
for event in events:
    freqs = event.grid()
    data = template(freqs, event.params)
    psd = 1.0 + (freqs / 20.0) ** 2
    for mass in (1.0, 1.3):
        h = template(freqs, jnp.array([mass, 0.0]))
        scores.append(float(overlap(h, data, psd, 1.0 / event.duration)))
with open(__file__.replace("main.py", "out.json"), "w") as out:
    json.dump(scores, out)
"""


def test_arrays_of_the_rows_count_are_padded_beside_them_and_items_of_an_argument_are_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The template's parameters, unpacked into numbers beside a module constant, have fewer axes
    than the frequencies (one fewer, then: the front checks the parameters have no more than the
    frequencies' rank plus one). Its output, sliced back, reaches the overlap in a second round,
    with two more arrays of the frequencies' count used element by element alone: either, padded
    when they have the count and rank of the power spectrum the finding names."""
    files = {"waveform.py": WAVEFORM, "events.py": EVENTS, "main.py": SPECTRA}
    root = project(tmp_path, monkeypatch, files)
    assert lint("--fix", "--unsafe-fixes", ".").exit_code == 1  # the fallback's call is still told
    text = (root / "waveform.py").read_text()
    assert (
        text
        == WAVEFORM[: WAVEFORM.index("@jax.jit")]
        + PADDED_ROWS
        + '''\
@jax.jit
def template_padded(freqs, params):
    mass, phase0 = params
    amplitude = 1e3 * (mass * MTSUN) ** (5.0 / 6.0) * freqs ** (-7.0 / 6.0)
    return amplitude * jnp.cos(2.0 * jnp.pi * freqs * mass * 1e-3 + phase0)


def template(freqs, params):
    """template of freqs padded to a bucket of rows: one trace per bucket."""
    valid = len(freqs)
    if jnp.ndim(params) >= jnp.ndim(freqs) + 1:
        return template_padded.__wrapped__(freqs, params)
    return template_padded(padded_rows(freqs), params)[:valid]


'''
        + PAD[len(PADDED_ROWS) :]
        + '''@jax.jit
def overlap_padded(h, d, psd, df, *, valid_2):
    return 4.0 * df * over_rows(jnp.sum, h * d / psd, valid_2)


def overlap(h, d, psd, df):
    """overlap of psd padded to a bucket of rows: one trace per bucket."""
    valid_2 = len(psd)
    if jnp.ndim(d) > jnp.ndim(psd) or jnp.ndim(h) > jnp.ndim(psd):
        return overlap_padded.__wrapped__(h, d, psd, df, valid_2=valid_2)
    d = padded_rows(d) if jnp.ndim(d) == jnp.ndim(psd) and jnp.shape(d)[:1] == (valid_2,) else d
    h = padded_rows(h) if jnp.ndim(h) == jnp.ndim(psd) and jnp.shape(h)[:1] == (valid_2,) else h
    return overlap_padded(h, d, padded_rows(psd), df, valid_2=valid_2)
'''
    )
    again = lint("--fix", "--unsafe-fixes", ".")
    assert "RTL101 not fixed: the array is padded to a bucket already" in again.output
    assert (root / "waveform.py").read_text() == text


WHITENING = '''\
"""The newest reading of a sensor array, whitened by the covariance of the readings before it."""

import jax
import jax.numpy as jnp


@jax.jit
def whitened_last(window, ridge):
    mean = window.mean(axis=0)
    dev = window - mean
    cov = dev.T @ dev / (window.shape[0] - 1) + ridge * jnp.eye(window.shape[1])
    return jnp.linalg.solve(cov, window[-1] - mean)
'''

BURSTS = """\
import json

import numpy as np
from whitening import whitened_last

rng = np.random.default_rng(1)
readings = rng.normal(size=(40, 3)).astype(np.float32) @ np.array(
    [[1.0, 0.3, 0.0], [0.0, 1.0, 0.5], [0.0, 0.0, 1.0]], np.float32
)
seen = [5, 9, 14, 16, 12]  # how many readings each burst kept
out = [float(v) for n in seen for v in whitened_last(readings[:n], 1e-3)]
with open(__file__.replace("main.py", "out.json"), "w") as out_file:
    json.dump(out, out_file)
"""


def test_a_covariance_over_the_rows_and_the_count_it_is_divided_by_are_the_real_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The readings of each burst, a matrix of rows (the front checks it has two axes): the
    covariance, a sum over the rows, zeroes the padding of both its factors; the row count is the
    real one, a traced value that may go where linalg.solve takes an array, while the shape made of
    the readings' other axis stays as it was; the newest reading is the last real one."""
    root = project(tmp_path, monkeypatch, {"whitening.py": WHITENING, "main.py": BURSTS})
    assert fixed_once(root, "whitening.py") == WHITENING.replace(
        "@jax.jit", PAD + REAL_ROWS + "@jax.jit"
    ).replace(
        WHITENING[WHITENING.index("def whitened_last") :],
        '''\
def whitened_last_padded(window, ridge, *, valid):
    mean = over_rows(jnp.mean, window, valid, axis=0)
    dev = window - mean
    cov = real_rows(dev, valid).T @ real_rows(dev, valid) / (valid - 1) + ridge * jnp.eye(window.shape[1])
    return jnp.linalg.solve(cov, window[valid - 1] - mean)


def whitened_last(window, ridge):
    """whitened_last of window padded to a bucket of rows: one trace per bucket."""
    valid = len(window)
    if jnp.ndim(window) != 2:
        return whitened_last_padded.__wrapped__(window, ridge, valid=valid)
    return whitened_last_padded(padded_rows(window), ridge, valid=valid)
''',
    )
