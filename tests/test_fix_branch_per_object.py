"""RTL204's fix (issue 41) for a static function a method binds in the two branches of an ``if``: a
periodogram passes its plain spectrum function, or, where a taper is set, the one a factory in another
module wraps around it, made anew at every estimate. The wrapped one is made once in ``__init__``, under
the same test (so the factory is not called where the branch is not taken), and the branch passes the
one kept on the object. Unsafe; refused when the test reads what may change between calls. A project
over three modules, as a user runs it."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_fix_closures import fixed_once, lint, project

WINDOWS = '''\
"""Tapers for spectral estimates: a window applied to each segment before its transform."""

import jax.numpy as jnp


def tapered(spectrum_fn, width):
    """spectrum_fn of each segment, tapered by a Hann window of ``width`` samples at each end."""

    def apply(segments):
        n = segments.shape[-1]
        ramp = 0.5 - 0.5 * jnp.cos(jnp.pi * jnp.arange(width) / width)
        window = jnp.ones(n).at[:width].set(ramp).at[n - width :].set(ramp[::-1])
        return spectrum_fn(segments * window)

    return apply
'''

ESTIMATOR = '''\
"""Welch-style power spectra of sensor records, averaged over segments."""

from functools import partial

import jax
import jax.numpy as jnp

from windows import tapered


def raw_power(segments):
    return jnp.abs(jnp.fft.rfft(segments, axis=-1)) ** 2


@partial(jax.jit, static_argnums=0)
def mean_power(spectrum_fn, segments):
    return jnp.mean(spectrum_fn(segments), axis=0)


class Periodogram:
    def __init__(self, segment, taper=None):
        self.segment = segment
        self.taper = taper
        self.spectrum_fn = raw_power

    def estimate(self, record):
        segments = record[: len(record) // self.segment * self.segment].reshape(-1, self.segment)
        if self.taper is None:
            fn = self.spectrum_fn
        else:
            # a tapered estimate leaks less power between neighbouring bins
            fn = tapered(self.spectrum_fn, self.taper)
        return mean_power(fn, segments)
'''

MAIN = """\
import jax.numpy as jnp

from estimator import Periodogram

estimator = Periodogram(segment=32, taper=4)
for hour in range(3):
    t = jnp.arange(512) / 64.0
    record = jnp.sin(2 * jnp.pi * (5.0 + hour) * t)
    print(hour, int(jnp.argmax(estimator.estimate(record))))
"""

SPECTRA = {"windows.py": WINDOWS, "estimator.py": ESTIMATOR, "main.py": MAIN}
MADE = "        self._fn = None if self.taper is None else tapered(self.spectrum_fn, self.taper)\n"


def test_a_value_one_branch_makes_is_made_once_in_init_under_the_same_test(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, SPECTRA)
    safe = lint("--fix", ".")
    assert safe.stderr.splitlines()[-1] == (
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)."
    )
    assert fixed_once(root, "estimator.py") == ESTIMATOR.replace(
        "        self.spectrum_fn = raw_power\n", "        self.spectrum_fn = raw_power\n" + MADE
    ).replace("fn = tapered(self.spectrum_fn, self.taper)", "fn = self._fn")
    for name in ("windows.py", "main.py"):
        assert (root / name).read_text() == SPECTRA[name]


def test_a_value_the_taken_branch_makes_is_kept_by_the_test_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the call in the branch the test takes: made where the test holds, None where it does not
    flipped = ESTIMATOR.replace(
        "        if self.taper is None:\n            fn = self.spectrum_fn\n        else:\n",
        "        if self.taper:\n",
    ).replace(
        "fn = tapered(self.spectrum_fn, self.taper)\n",
        "fn = tapered(self.spectrum_fn, self.taper)\n        else:\n            fn = raw_power\n",
    )
    root = project(tmp_path, monkeypatch, {**SPECTRA, "estimator.py": flipped})
    assert fixed_once(root, "estimator.py") == flipped.replace(
        "        self.spectrum_fn = raw_power\n",
        "        self.spectrum_fn = raw_power\n"
        "        self._fn = tapered(self.spectrum_fn, self.taper) if self.taper else None\n",
    ).replace("fn = tapered(self.spectrum_fn, self.taper)\n", "fn = self._fn\n")


@pytest.mark.parametrize(
    ("changed", "reason"),
    [
        # the test reads the call's own argument: which branch runs may change from call to call
        (
            ESTIMATOR.replace(
                "def estimate(self, record):", "def estimate(self, record, taper=4):"
            ).replace("if self.taper is None:", "if taper is None:"),
            "it reads taper, which may change between calls",
        ),
        # another method sets the taper: a function made once would keep the first one
        (
            ESTIMATOR + "\n    def retune(self, taper):\n        self.taper = taper\n",
            "self.taper is changed outside __init__: the value made once would not follow",
        ),
    ],
)
def test_a_branch_whose_value_may_differ_from_one_made_in_init_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, changed: str, reason: str
) -> None:
    root = project(tmp_path, monkeypatch, {**SPECTRA, "estimator.py": changed})
    result = lint("--fix", "--unsafe-fixes", ".")
    refused = [line for line in result.stderr.splitlines() if " not fixed: " in line]
    # the first reason is the fix for a value made where it is passed (make_once)
    once = "the fresh value is not a lambda, a partial or a constructor call here"
    assert (result.exit_code, refused) == (
        1,
        [f"retracelint: estimator.py:33:27: RTL204 not fixed: {once}; {reason}"],
    )
    assert (root / "estimator.py").read_text() == changed


def test_the_editor_offers_the_branch_fix_as_an_unsafe_quick_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("lsprotocol")
    from retracelint import config
    from retracelint.engine import analyse
    from retracelint.server import fix_edit, quick_fix

    root = project(tmp_path, monkeypatch, SPECTRA)
    settings = config.load([str(root)], isolated=True)
    (finding,) = analyse(list(SPECTRA), settings).findings
    read = lambda path: (root / path).read_bytes()  # noqa: E731
    assert quick_fix(finding, read, unsafe=False) is None
    fix = quick_fix(finding, read, unsafe=True)
    assert fix is not None and fix.unsafe
    workspace = fix_edit(fix, {}, document_changes=False)
    assert workspace is not None and workspace.changes is not None
    ((edit,),) = workspace.changes.values()
    lines = ESTIMATOR.splitlines(keepends=True)
    start, end = edit.range.start.line, edit.range.end.line
    fixed = "".join(lines[:start]) + edit.new_text + "".join(lines[end:])
    assert MADE in fixed and "            fn = self._fn\n" in fixed
