"""The shape rules' fixes (issue 41), unsafe: RTL103's short last batch dropped where the loader has the
option (``drop_last``, ``drop_remainder``); RTL101/RTL102/RTL105's varying rows given to a row-wise jitted
function at one length (the whole array, or padded to a power-of-two bucket) and its result sliced back;
refused, saying why, where the jitted function mixes rows."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from rule_pages import load_pages
from shape_pads import PADDED_ROWS
from test_fix_closures import codes, fixed_once, lint, project, proved_by_jax
from test_fix_masked_rows import (
    BUFFER,
    BURSTS,
    DECODE,
    DECODER,
    EMBED,
    EVENTS,
    GRADES,
    HISTOGRAMS,
    LEAGUE,
    MODEL,
    PERIODS,
    PROMPTS,
    RATING,
    REGRESSION,
    SAMPLES,
    SCORING,
    SEGMENTS,
    SPECTRA,
    TOKENIZER,
    WATCH,
    WAVEFORM,
    WHITENING,
)

DENOISE = '''\
"""Soft-threshold denoising of a sensor stream."""

import jax
import jax.numpy as jnp


@jax.jit
def shrink(samples):
    """Pull every sample towards zero by the noise floor."""
    magnitude = jnp.maximum(jnp.abs(samples) - 0.25, 0.0)
    return jnp.sign(samples) * magnitude
'''

REPLAY = """\
import json

import jax.numpy as jnp
from denoise import shrink


def replay(stream):
    energies = []
    for arrived in range(1, len(stream) + 1):
        clean = shrink(stream[:arrived])  # everything seen so far
        energies.append(float(jnp.sum(clean**2)))
    return energies


energies = replay(jnp.sin(jnp.linspace(0.0, 5.0, 12)))
with open(__file__.replace("main.py", "out.json"), "w") as out:
    json.dump(energies, out)
"""

WALK = '''\
"""Grow a trajectory point by point; after each step, score every point so far."""

import json

import jax
import jax.numpy as jnp


@jax.jit
def clipped_speed(points):
    return jnp.clip(points * 2.0 + 1.0, -3.0, 3.0)


def walk(steps):
    points = jnp.zeros((1, 2))
    scores = []
    for step in range(steps):
        speeds = clipped_speed(points)
        scores.append(float(speeds.sum()))
        points = jnp.concatenate([points, points[-1:] + 0.1 * (step + 1)])
    return scores


with open(__file__.replace("main.py", "out.json"), "w") as out:
    json.dump(walk(6), out)
'''

PAD = PADDED_ROWS

METRICS = '''\
"""Masked evaluation metrics: padded rows carry no weight."""

import jax
import jax.numpy as jnp


@jax.jit
def squared_error(w, x, y, mask=None):
    errors = (x @ w - y) ** 2
    if mask is None:
        return jnp.sum(errors)
    return jnp.sum(jnp.where(mask, errors, 0.0))
'''

EVALUATE = """\
import json

import jax.numpy as jnp
import numpy as np
from metrics import squared_error

BATCH = 8


def evaluate(w, x, y):
    total = 0.0
    for start in range(0, len(x), BATCH):
        total += float(squared_error(w, x[start : start + BATCH], y[start : start + BATCH]))
    return total / len(x)


rng = np.random.default_rng(0)
x = rng.normal(size=(19, 3)).astype(np.float32)
y = x @ np.array([1.0, -2.0, 0.5], np.float32) + 0.1
with open(__file__.replace("main.py", "out.json"), "w") as out:
    json.dump([evaluate(jnp.ones(3), x, y)], out)
"""

LOADERS = """\
import jax
import jax.numpy as jnp
import tensorflow as tf
from torch.utils.data import DataLoader


@jax.jit
def train_step(params, x, y):
    return params - 0.1 * jnp.mean(x * y)


def epoch_torch(params, dataset):
    loader = DataLoader(
        dataset,
        batch_size=64,
        shuffle=True,  # a new order each epoch
    )
    for xb, yb in loader:
        params = train_step(params, jnp.asarray(xb), jnp.asarray(yb))
    return params


def epoch_tf(params, x, y):
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1024).batch(128)
    for xb, yb in ds.as_numpy_iterator():
        params = train_step(params, xb, yb)
    return params
"""


def test_a_prefix_slice_is_the_whole_array_with_the_result_sliced_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    root = project(tmp_path, monkeypatch, {"denoise.py": DENOISE, "main.py": REPLAY})
    safe = lint("--fix", ".")
    assert "1 hidden fix can be enabled with the `--unsafe-fixes` option" in safe.output
    assert (root / "main.py").read_text() == REPLAY
    diff = lint("--diff", "--unsafe-fixes", ".")
    assert diff.exit_code == 1
    assert diff.stdout == (
        "--- a/main.py\n+++ b/main.py\n@@ -7,7 +7,7 @@\n def replay(stream):\n"
        "     energies = []\n     for arrived in range(1, len(stream) + 1):\n"
        "-        clean = shrink(stream[:arrived])  # everything seen so far\n"
        "+        clean = shrink(stream)[:arrived]  # everything seen so far\n"
        "         energies.append(float(jnp.sum(clean**2)))\n     return energies\n \n"
    )
    text = fixed_once(root, "main.py")
    assert text == REPLAY.replace("shrink(stream[:arrived])", "shrink(stream)[:arrived]")


def test_a_grown_array_is_padded_to_a_bucket_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    root = project(tmp_path, monkeypatch, {"main.py": WALK})
    # bounded once fixed: the helper pads the grown axis to a power of two, one trace per bucket
    text = fixed_once(root, "main.py")
    assert text == WALK.replace("def walk", PAD + "def walk").replace(
        "= clipped_speed(points)", "= clipped_speed(padded_rows(points))[: len(points)]"
    )


def test_a_grown_array_padded_by_a_helper_of_another_module_is_bounded_by_how_it_pads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The size decides, not the helper's name: a power of two or a multiple of a block above the
    length is one trace per bucket; the length plus a margin is one per length."""
    concatenated = PAD.replace(
        "jnp.zeros((size, *rows.shape[1:]), rows.dtype).at[: len(rows)].set(rows)",
        "jnp.concatenate([rows, jnp.zeros((size - len(rows), *rows.shape[1:]), rows.dtype)])",
    )
    helpers = "import jax.numpy as jnp\n\n\n" + concatenated.replace(
        "1 << max(len(rows) - 1, 0).bit_length()", "{size}"
    )
    main = WALK.replace(
        "import jax.numpy as jnp", "import jax.numpy as jnp\nfrom pads import padded_rows"
    )
    main = main.replace("= clipped_speed(points)", "= clipped_speed(padded_rows(points))")
    project(tmp_path, monkeypatch, {"main.py": main})
    for size, found in [
        ("2 ** math.ceil(math.log2(len(rows)))", []),
        ("-(-len(rows) // 8) * 8", []),
        ("len(rows) + 8", [("main.py", "RTL102"), ("pads.py", "RTL105")]),
    ]:
        (tmp_path / "pads.py").write_text("import math\n" + helpers.format(size=size))
        assert codes(".") == found, size


@pytest.mark.parametrize(
    ("returned", "why"),
    [
        ("jnp.cumsum(magnitude)", "uses jnp.cumsum at line 11"),
        ("jnp.where(magnitude > 0)", "uses jnp.where at line 11"),  # the indices of the rows
        ("magnitude @ samples", "uses magnitude @ samples at line 11"),
    ],
)
def test_a_jitted_function_that_mixes_rows_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, returned: str, why: str
):
    mixing = DENOISE.replace("return jnp.sign(samples) * magnitude", f"return {returned}")
    mixing = mixing.replace("def shrink(samples):", "def shrink(samples, scale=2.0):")
    root = project(tmp_path, monkeypatch, {"denoise.py": mixing, "main.py": REPLAY})
    result = lint("--fix", "--unsafe-fixes", ".")
    assert (
        f"retracelint: main.py:10:24: RTL101 not fixed: shrink {why}, "
        "so padded rows would change its result"
    ) in result.output
    assert (root / "main.py").read_text() == REPLAY


def test_a_slice_passed_to_a_jitted_function_of_another_module_that_reduces_is_padded_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The call passes the slice itself, but the jitted function sums its rows: the caller stays as
    it is, and the module that jits pads the slice as it enters (one fix, the other file's)."""
    denoise = DENOISE.replace(
        "return jnp.sign(samples) * magnitude", "return magnitude / (magnitude.sum() + 1.0)"
    )
    root = project(tmp_path, monkeypatch, {"denoise.py": denoise, "main.py": REPLAY})
    diff = lint("--diff", "--unsafe-fixes", ".")
    assert diff.exit_code == 1
    assert diff.stdout.startswith("--- a/denoise.py\n+++ b/denoise.py\n")
    assert "main.py" not in diff.stdout
    text = fixed_once(root, "denoise.py")
    assert "    return magnitude / (over_rows(jnp.sum, magnitude, valid) + 1.0)\n" in text
    assert "    return shrink_padded(padded_rows(samples), valid=valid)[:valid]\n" in text
    assert (root / "main.py").read_text() == REPLAY


def test_loaders_drop_their_short_last_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    root = project(tmp_path, monkeypatch, {"train.py": LOADERS})
    text = fixed_once(root, "train.py")
    assert text == LOADERS.replace(
        "shuffle=True,  # a new order", "shuffle=True, drop_last=True,  # a new order"
    ).replace(".batch(128)", ".batch(128, drop_remainder=True)")


OWN_LOADER = """\
import numpy as np


class Loader:
    def __init__(self, x, y, batch_size, seed=0, drop_last=False):
        self.x, self.y = x, y
        self.batch_size = batch_size
        self.rng = np.random.default_rng(seed)
        self.drop_last = drop_last

    def __iter__(self):
        perm = self.rng.permutation(len(self.x))
        for start in range(0, len(perm), self.batch_size):
            idx = perm[start : start + self.batch_size]
            if self.drop_last and len(idx) < self.batch_size:
                return
            yield self.x[idx], self.y[idx]
"""

FIT = """\
import jax
import jax.numpy as jnp
import numpy as np
from data import Loader


@jax.jit
def step(w, x, y):
    return w - 0.1 * jnp.mean((x @ w - y) * x.T, axis=1)


def fit(x, y, epochs=3):
    w = jnp.zeros(x.shape[1])
    loader = Loader(x, y, 4)  # reshuffled every epoch
    for _ in range(epochs):
        for xb, yb in loader:
            w = step(w, xb, yb)
    return w


print(fit(np.ones((10, 2), np.float32), np.ones(10, np.float32)))
"""


def test_a_project_loader_with_the_option_in_its_signature_is_made_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    root = project(tmp_path, monkeypatch, {"data.py": OWN_LOADER, "main.py": FIT})
    first = lint("--fix", "--unsafe-fixes", ".")
    # the loader skips its short chunk when told to: once told, nothing is left to report
    assert first.exit_code == 0 and "Found 1 error (1 fixed, 0 remaining)." in first.output
    assert fixed_once(root, "main.py") == FIT.replace(
        "Loader(x, y, 4)", "Loader(x, y, 4, drop_last=True)"
    )
    assert (root / "data.py").read_text() == OWN_LOADER


# A generator function that cuts the chunks and honours its own option (``drop_remainder``, read
# last in the test; ``break`` ends the loop); and a class that takes ``drop_last`` and ignores it.
BATCHES = """\
def batches(images, labels, size, drop_remainder=False):
    for start in range(0, len(images), size):
        chunk = images[start : start + size]
        if len(chunk) != size and drop_remainder:
            break
        yield chunk, labels[start : start + size]


class Stream:
    def __init__(self, images, size, drop_last=False):
        self.images, self.size, self.drop_last = images, size, drop_last

    def __iter__(self):
        for start in range(0, len(self.images), self.size):
            yield self.images[start : start + self.size]
"""

TRAIN = """\
import jax
import jax.numpy as jnp
from batching import Stream, batches


@jax.jit
def loss(w, images):
    return jnp.mean((images @ w) ** 2)


def train(images, labels, w):
    drop = {drop}
    for xb, _ in batches(images, labels, 32, drop_remainder=drop):
        w = w - 0.1 * loss(w, xb)
    return w


def evaluate(images, w):
    stream = Stream(images, 32, drop_last=True)
    return [loss(w, xb) for xb in stream]
"""


@pytest.mark.parametrize(
    ("drop", "reported"),
    [
        ("True", []),
        ("False", [("batching.py", 3)]),
        ("len(images) > 64", [("batching.py", 3)]),  # true on some runs only
    ],
)
def test_a_project_loader_is_clean_only_where_it_honours_the_flag_passed_true(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, drop: str, reported: list
):
    project(tmp_path, monkeypatch, {"batching.py": BATCHES, "main.py": TRAIN.format(drop=drop)})
    found = json.loads(lint("--output-format", "json", ".").stdout)
    # Stream ignores drop_last=True: its short last chunk is still passed, and still reported
    lines = sorted((f["path"], f["line"]) for f in found if f["code"] == "RTL103")
    assert lines == sorted([("batching.py", 15), *reported])


def test_a_hand_sliced_loop_is_refused_with_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """No mask to pass, and a body that runs through the rows in order (a running sum): padding
    would reach what it returns, whether at the call or as the chunk enters."""
    loop = (
        "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef batch_loss(batch):\n"
        "    return jnp.cumsum(batch**2)\n\n\ndata = jnp.arange(10.0)\n"
        "for start in range(0, len(data), 4):\n    print(batch_loss(data[start : start + 4]))\n"
    )
    root = project(tmp_path, monkeypatch, {"main.py": loop})
    result = lint("--fix", "--unsafe-fixes", ".")
    assert (
        "RTL103 not fixed: the chunks are sliced by hand, with no drop_last option; padding the "
        "last one would change what batch_loss computes: it takes no mask of the valid rows; "
        "batch_loss uses jnp.cumsum at line 7, so padded rows would change its result"
    ) in result.output
    assert (root / "main.py").read_text() == loop


def test_a_hand_sliced_loop_pads_its_chunks_for_a_jitted_function_taking_a_mask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    root = project(tmp_path, monkeypatch, {"metrics.py": METRICS, "main.py": EVALUATE})
    text = fixed_once(root, "main.py")
    assert text == EVALUATE.replace("def evaluate", PAD + "def evaluate").replace(
        "squared_error(w, x[start : start + BATCH], y[start : start + BATCH])",
        "squared_error(w, padded_rows(x[start : start + BATCH], BATCH), "
        "padded_rows(y[start : start + BATCH], BATCH), "
        "mask=jnp.arange(BATCH) < len(x[start : start + BATCH]))",
    )


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_jax_traces_the_shape_fixes_once_and_they_print_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    programs = {
        "replay": ({"denoise.py": DENOISE, "main.py": REPLAY}, "main.py", "shrink", 11),
        "walk": ({"main.py": WALK}, "main.py", "clipped_speed", 5),
        "evaluate": ({"metrics.py": METRICS, "main.py": EVALUATE}, "main.py", "squared_error", 1),
        # padded where the array enters the jitted function, its reductions over the real rows
        "watch": (
            {"scoring.py": SCORING, "buffer.py": BUFFER, "main.py": WATCH},
            "main.py",
            "zscore_alarm",
            7,
        ),
        "prompts": (
            {"embed.py": EMBED, "tokenizer.py": TOKENIZER, "main.py": PROMPTS},
            "main.py",
            "pooled_embedding",
            2,
        ),
        "decode": (
            {"model.py": MODEL, "decoder.py": DECODER, "main.py": DECODE},
            "main.py",
            "next_token_logits",
            5,
        ),
        # other arguments padded beside the rows, or passed as they are, by the roles they get
        "regression": ({"regression.py": REGRESSION, "main.py": SAMPLES}, "main.py", "effect", 2),
        "rating": (
            {"rating.py": RATING, "league.py": LEAGUE, "main.py": PERIODS},
            "main.py",
            "rate",
            2,
        ),
        "grades": (
            {"metrics.py": HISTOGRAMS, "segments.py": SEGMENTS, "main.py": GRADES},
            "main.py",
            "histogram_distance",
            1,
        ),
        "bursts": ({"whitening.py": WHITENING, "main.py": BURSTS}, "main.py", "whitened_last", 4),
        "spectra": (
            {"waveform.py": WAVEFORM, "events.py": EVENTS, "main.py": SPECTRA},
            "main.py",
            "overlap",
            2,
        ),
    }
    proved_by_jax(tmp_path, monkeypatch, programs, exit_codes=(0, 1))


SHAPE_PAGES = {
    page.code: page
    for page in load_pages()
    if page.code in ("RTL101", "RTL102", "RTL103", "RTL104", "RTL105")
}


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_the_shape_rule_pages_flagged_examples_are_fixed_to_trace_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Each page's flagged example, fixed with --unsafe-fixes (RTL103's chunk padded as it enters
    the jitted function, which takes no mask), traces once and prints what it printed."""
    from dynamic_support import count_retraces_many

    scripts = []
    for code, page in SHAPE_PAGES.items():
        for copy in ("original", "fixed"):  # fixed last: the folder the fix runs in
            (tmp_path / code / copy).mkdir(parents=True)
            project(tmp_path / code / copy, monkeypatch, {"example.py": page.flagged_source or ""})
        assert lint("--fix", "--unsafe-fixes", ".").exit_code == 0, code
        assert (tmp_path / code / "fixed" / "example.py").read_text() != page.flagged_source
        scripts += [tmp_path / code / copy / "example.py" for copy in ("original", "fixed")]
    reports = iter(count_retraces_many(scripts, cwd=tmp_path))
    for code in SHAPE_PAGES:
        before, after = next(reports), next(reports)
        assert not before.raised and before.total_retraces > 0, (code, before.summary())
        assert not after.raised and after.traces and after.total_retraces == 0, after.summary()
        assert after.stdout == before.stdout, code
