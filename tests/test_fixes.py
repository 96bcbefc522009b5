"""``retracelint check --fix`` / ``--diff`` on a small project, as a user runs them.

The fixed files are compared whole with the text a careful human would write: everything outside the
rewritten argument (comments, blank lines, trailing commas, line endings, non-ASCII text) must come back
byte for byte. Every run passes ``--no-cache`` so nothing but the fixes is written into the tree.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from rule_pages import RULES_DIR, parse_page

from retracelint import config, fixes
from retracelint.cli import main
from retracelint.engine import analyse
from retracelint.fixes import ARGUMENT_FIXABLE, fix_source

EXPECT_MARKER = re.compile(r"  # expect: RTL\d{3}")
FINDING = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>RTL\d{3}) ")

MODEL = '''\
"""A small classifier: the jitted pieces take their axes and class sets as static arguments."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("axes",))
def normalise(x, axes):
    mean = jnp.mean(x, axis=axes, keepdims=True)
    return x - mean


@partial(jax.jit, static_argnames=("classes",))
def keep_classes(logits, classes):
    return logits[:, sorted(classes)]


@partial(jax.jit, static_argnames=("axis",))
def log_softmax(logits, axis):
    return jax.nn.log_softmax(logits, axis=axis)


@partial(jax.jit, static_argnames=("temperature",))
def scaled(logits, temperature, bias):
    return logits / temperature + bias
'''

EVALUATE = '''\
"""Evaluation: static arguments written as lists and sets, and one passed two ways."""

import jax.numpy as jnp

from model import keep_classes, log_softmax, normalise


def evaluate(batches, labels):
    total = 0.0
    for batch, label in zip(batches, labels):
        # Centre over the batch and feature axes before scoring.
        x = normalise(batch, axes=[0, 1])
        x = normalise(x, axes=[1])  # one axis
        logits = keep_classes(
            x,
            {  # the classes the report shows
                0,
                2,
            },
        )
        probs = log_softmax(logits, axis=-1)
        again = log_softmax(
            logits,
            -1,  # the same axis, by position
        )
        total += float(jnp.sum(probs * label) + jnp.sum(again))
    return total
'''

EVALUATE_FIXED = '''\
"""Evaluation: static arguments written as lists and sets, and one passed two ways."""

import jax.numpy as jnp

from model import keep_classes, log_softmax, normalise


def evaluate(batches, labels):
    total = 0.0
    for batch, label in zip(batches, labels):
        # Centre over the batch and feature axes before scoring.
        x = normalise(batch, axes=(0, 1))
        x = normalise(x, axes=(1,))  # one axis
        logits = keep_classes(
            x,
            frozenset({  # the classes the report shows
                0,
                2,
            }),
        )
        probs = log_softmax(logits, axis=-1)
        again = log_softmax(
            logits,
            axis=-1,  # the same axis, by position
        )
        total += float(jnp.sum(probs * label) + jnp.sum(again))
    return total
'''

# Every line here is flagged, and --fix changes none of them.
LEFT_ALONE = '''\
"""Static arguments --fix leaves alone: each needs a decision the tool cannot make safely."""

import numpy as np

from model import log_softmax, normalise

FEATURE_AXES = [0, 1]


def centre(x, axes):
    return normalise(x, axes=axes)


def report(batches, bias, extra):
    for batch in batches:
        a = normalise(batch, axes=FEATURE_AXES)  # a variable: fix it where it is made
        b = normalise(batch, axes=[k for k in range(2)])  # a comprehension
        c = normalise(batch, axes=[[0], 1])  # a tuple would still hold a list
        d = centre(batch, [0, 1])  # reaches the jit call through a helper
        e = normalise(batch, axes=np.arange(2))  # an array
        h = log_softmax(batch, axis=1)
        i = log_softmax(batch, 1, *extra)  # *extra could fill other parameters
        yield a, b, c, d, e, h, i
'''
LEFT_ALONE_FINDINGS = [
    ("leftalone.py", 16, "RTL203"),
    ("leftalone.py", 17, "RTL203"),
    ("leftalone.py", 18, "RTL203"),
    ("leftalone.py", 19, "RTL203"),
    ("leftalone.py", 20, "RTL203"),
    ("leftalone.py", 22, "RTL404"),
]

# At a call that passes it by keyword, the positional call the message names is the one to change.
PREDICT = """\
from model import log_softmax


def predict(batches):
    for batch in batches:
        first = log_softmax(batch, 1)
        second = log_softmax(batch, axis=1)
        yield first, second
"""

# The calls of one group are reported one at a time: each fix reveals the next.
SWEEP = """\
from model import log_softmax


def sweep(batches):
    for batch in batches:
        yield (
            log_softmax(batch, axis=0),
            log_softmax(batch, 0),
            log_softmax(batch, 0),
            log_softmax(batch, 0),
        )
"""
SWEEP_FIXED = SWEEP.replace("batch, 0)", "batch, axis=0)")

UNICODE = '''\
"""Évaluation « à la française »: non-ASCII text before and after the rewritten argument."""

from model import log_softmax, normalise


def évaluer(données):
    for lot in données:
        centré = normalise(lot, axes=[0, 1])  # « centré » sur les deux axes
        probabilités = log_softmax(centré, axis=-1)  # « probabilités »
        écart = log_softmax(centré, -1)  # même axe — par position
        yield probabilités, écart
'''
UNICODE_FIXED = UNICODE.replace("axes=[0, 1]", "axes=(0, 1)").replace(
    "(centré, -1)", "(centré, axis=-1)"
)

EVALUATE_DIFF = """\
--- a/evaluate.py
+++ b/evaluate.py
@@ -9,19 +9,19 @@
     total = 0.0
     for batch, label in zip(batches, labels):
         # Centre over the batch and feature axes before scoring.
-        x = normalise(batch, axes=[0, 1])
-        x = normalise(x, axes=[1])  # one axis
+        x = normalise(batch, axes=(0, 1))
+        x = normalise(x, axes=(1,))  # one axis
         logits = keep_classes(
             x,
-            {  # the classes the report shows
+            frozenset({  # the classes the report shows
                 0,
                 2,
-            },
+            }),
         )
         probs = log_softmax(logits, axis=-1)
         again = log_softmax(
             logits,
-            -1,  # the same axis, by position
+            axis=-1,  # the same axis, by position
         )
         total += float(jnp.sum(probs * label) + jnp.sum(again))
     return total
"""


# -- helpers ---------------------------------------------------------------------------------------
@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary project, made the working directory so that reported paths are relative."""
    for name in ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY"):
        monkeypatch.delenv(name, raising=False)
    write(tmp_path, {"model.py": MODEL, "evaluate.py": EVALUATE, "leftalone.py": LEFT_ALONE})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        (root / rel).write_bytes(data)


def lint(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(main, ["check", "--no-cache", *args], input=stdin)


def found(result: Result, codes: frozenset[str] = ARGUMENT_FIXABLE) -> list[tuple[str, int, str]]:
    """(path, line, code) of each finding line in the output, for ``codes``."""
    out = []
    for line in result.stdout.splitlines():
        match = FINDING.match(line)
        assert match, f"not a finding line: {line!r}"
        if match["code"] in codes:
            out.append((match["path"], int(match["line"]), match["code"]))
    return out


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(root.glob("*.py"))}


# -- the fixes -------------------------------------------------------------------------------------
def test_the_project_has_the_findings_the_fixes_are_for(project: Path) -> None:
    result = lint(".")
    assert found(result) == [
        ("evaluate.py", 12, "RTL203"),
        ("evaluate.py", 13, "RTL203"),
        ("evaluate.py", 16, "RTL203"),
        ("evaluate.py", 24, "RTL404"),
        *LEFT_ALONE_FINDINGS,
    ]


def test_fix_rewrites_lists_sets_and_positional_arguments_and_nothing_else(project: Path) -> None:
    result = lint("--fix", ".")
    assert (project / "evaluate.py").read_text(encoding="utf-8") == EVALUATE_FIXED
    assert (project / "leftalone.py").read_text(encoding="utf-8") == LEFT_ALONE
    assert (project / "model.py").read_text(encoding="utf-8") == MODEL
    assert "Found 10 errors (4 fixed, 6 remaining)." in result.stderr
    # Like ruff: what remains is reported, and it still makes the run fail.
    assert found(result) == LEFT_ALONE_FINDINGS
    assert result.exit_code == 1


def test_after_fix_a_new_run_reports_only_what_fix_leaves(project: Path) -> None:
    lint("--fix", ".")
    again = lint(".")
    assert found(again) == LEFT_ALONE_FINDINGS


def test_fix_exits_0_when_it_fixes_everything(project: Path) -> None:
    (project / "leftalone.py").unlink()
    result = lint("--fix", ".")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert lint(".").exit_code == 0


def test_fix_is_idempotent(project: Path) -> None:
    lint("--fix", ".")
    once = snapshot(project)
    second = lint("--fix", ".")
    assert snapshot(project) == once
    assert "(0 fixed, 6 remaining)." in second.stderr
    assert found(second) == LEFT_ALONE_FINDINGS


def test_at_a_keyword_the_positional_call_named_passes_it_by_keyword_too(project: Path) -> None:
    write(project, {"predict.py": PREDICT})
    assert found(lint("predict.py", "model.py")) == [("predict.py", 7, "RTL404")]
    result = lint("--fix", "predict.py", "model.py")
    assert result.exit_code == 0, result.output
    fixed = PREDICT.replace("log_softmax(batch, 1)", "log_softmax(batch, axis=1)")
    assert (project / "predict.py").read_text(encoding="utf-8") == fixed
    assert lint("--fix", "predict.py", "model.py").stdout == ""
    assert (project / "predict.py").read_text(encoding="utf-8") == fixed


def test_fix_follows_a_group_of_calls_to_the_end(project: Path) -> None:
    write(project, {"sweep.py": SWEEP})
    assert found(lint("sweep.py", "model.py")) == [("sweep.py", 8, "RTL404")]
    diff = lint("--diff", "sweep.py", "model.py")
    assert diff.stdout.count("+            log_softmax(batch, axis=0),") == 3
    result = lint("--fix", "sweep.py", "model.py")
    assert (project / "sweep.py").read_text(encoding="utf-8") == SWEEP_FIXED
    assert result.exit_code == 0, result.output
    assert result.stderr.endswith("Found 3 errors (3 fixed, 0 remaining).\n")


STATIC_ONE_WAY = """\
from functools import partial

import jax


@partial(jax.jit, static_argnums=1, static_argnames="n")
def scale(x, n, offset=0.0):
    return x * n + offset


def run(x):
    for _ in range(3):
        scale(x, n=2)
        scale(x, 2)
"""


def test_an_argument_static_only_by_keyword_is_not_moved_there(project: Path) -> None:
    # Both static_argnums and static_argnames name `n`: static passed either way, so the positional
    # call is the rule's own case, and --fix passes it by keyword.
    write(project, {"scale.py": STATIC_ONE_WAY})
    assert found(lint("scale.py")) == [("scale.py", 14, "RTL404")]
    assert "+        scale(x, n=2)" in lint("--diff", "scale.py").stdout
    # Named only in static_argnames (position 2 is `offset`): by position it is traced, so passing it by
    # keyword would change what it is, not only how jax keys its cache. The finding stays, unfixed.
    one_way = STATIC_ONE_WAY.replace("static_argnums=1", "static_argnums=2")
    write(project, {"scale.py": one_way})
    [line] = lint("scale.py").stdout.splitlines()
    assert line == (
        "scale.py:14:18: RTL404 [warning] 'n' is traced by position here but static by keyword at"
        " line 13, so jitted 'scale' compiles twice; pass it one way"
    )
    full = lint("--output-format", "full", "scale.py").stdout
    assert "(jax fills in one from the other only when the other is not given)\n" in full
    assert (lint("--diff", "scale.py").stdout, lint("--fix", "scale.py").exit_code) == ("", 1)
    assert (project / "scale.py").read_text(encoding="utf-8") == one_way


SCRIPT = """\
\"\"\"A script: fixable calls at the top level and in a decorated function.\"\"\"

import functools

import jax.numpy as jnp

from model import log_softmax, normalise

batches = [jnp.ones((4, 3)) for _ in range(3)]
for batch in batches:
    centred = normalise(batch, axes=(0, 1)); rows = normalise(batch, (0, 1))  # two on a line


@functools.lru_cache(maxsize=None)
def cached_scores(n):
    out = []
    for batch in batches[:n]:
        out.append(log_softmax(batch, axis=-1))
        out.append(log_softmax(batch, -1))
    return out
"""


def test_fix_at_the_top_level_next_to_decorators_and_on_shared_lines(project: Path) -> None:
    write(project, {"script.py": SCRIPT})
    assert found(lint("script.py", "model.py")) == [
        ("script.py", 11, "RTL404"),
        ("script.py", 19, "RTL404"),
    ]
    result = lint("--fix", "script.py", "model.py")
    assert result.exit_code == 0, result.output
    expected = SCRIPT.replace("normalise(batch, (0, 1))", "normalise(batch, axes=(0, 1))").replace(
        "log_softmax(batch, -1)", "log_softmax(batch, axis=-1)"
    )
    assert (project / "script.py").read_text(encoding="utf-8") == expected


def test_a_long_group_stops_after_max_rounds_and_reports_the_rest(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("retracelint.fixes.MAX_ROUNDS", 2)
    write(project, {"sweep.py": SWEEP})
    diff = lint("--diff", "sweep.py", "model.py")
    assert diff.stdout.count("+            log_softmax(batch, axis=0),") == 2
    result = lint("--fix", "sweep.py", "model.py")
    assert "Found 3 errors (2 fixed, 1 remaining)." in result.stderr
    assert found(result) == [("sweep.py", 10, "RTL404")]  # what is on disk now, not before
    assert (project / "sweep.py").read_text(encoding="utf-8").count("batch, axis=0)") == 3


# -- --diff ----------------------------------------------------------------------------------------
def test_diff_prints_what_fix_would_change_and_exits_1(project: Path) -> None:
    before = snapshot(project)
    result = lint("--diff", ".")
    assert result.stdout == EVALUATE_DIFF
    assert result.exit_code == 1
    assert result.stderr.endswith("Would fix 4 errors.\n")
    assert snapshot(project) == before  # --diff writes nothing


def test_diff_exits_0_when_there_is_nothing_to_fix(project: Path) -> None:
    (project / "evaluate.py").unlink()
    result = lint("--diff", ".")
    assert result.stdout == ""
    assert result.exit_code == 0
    assert "No errors would be fixed." in result.stderr


def test_diff_is_empty_after_fix(project: Path) -> None:
    lint("--fix", ".")
    result = lint("--diff", ".")
    assert (result.stdout, result.exit_code) == ("", 0)


def test_diff_applies_with_git_apply_and_gives_what_fix_writes(project: Path) -> None:
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    patch = project / "fix.patch"
    patch.write_text(lint("--diff", ".").stdout, encoding="utf-8")
    subprocess.run([git, "apply", str(patch)], cwd=project, check=True, capture_output=True)
    assert (project / "evaluate.py").read_text(encoding="utf-8") == EVALUATE_FIXED


def test_diff_of_standard_input_and_fix_never_writes_it(project: Path) -> None:
    source = EVALUATE.encode("utf-8")
    (project / "evaluate.py").unlink()
    diff = lint("--diff", "--stdin-filename", "evaluate.py", "-", "model.py", stdin=source)
    assert diff.stdout == EVALUATE_DIFF
    fixed = lint("--fix", "--stdin-filename", "evaluate.py", "-", "model.py", stdin=source)
    assert not (project / "evaluate.py").exists()
    # As ruff does: the fixed source on standard output, in place of the input; the report on stderr.
    assert fixed.stdout == EVALUATE_FIXED
    assert fixed.stderr == "Found 4 errors (4 fixed, 0 remaining).\n"
    assert fixed.exit_code == 0


def test_fix_of_standard_input_prints_it_fixed_and_reports_what_remains(project: Path) -> None:
    source = (EVALUATE + LEFT_ALONE.split('"""', 2)[2]).encode("utf-8")
    fixed = lint("--fix", "--stdin-filename", "evaluate.py", "-", stdin=source)
    assert fixed.stdout.startswith(EVALUATE_FIXED)
    assert fixed.stdout.count("axes=(1,)") == 1 and "FEATURE_AXES = [0, 1]" in fixed.stdout
    *lines, summary = fixed.stderr.splitlines()  # ruff's summary under the report
    report = [line for line in lines if " not fixed: " not in line]  # why, where a fix says
    assert summary == f"Found {4 + len(report)} errors (4 fixed, {len(report)} remaining)."
    codes = [FINDING.match(line)["code"] for line in report]  # type: ignore[index]
    assert codes == ["RTL203"] * 5 + ["RTL404"]  # what --fix leaves alone, where it now is
    assert fixed.exit_code == 1
    assert (project / "evaluate.py").read_text(encoding="utf-8") == EVALUATE  # never written


def test_selection_and_noqa_decide_what_is_fixed(project: Path) -> None:
    noqa = EVALUATE.replace("axes=[0, 1])", "axes=[0, 1])  # noqa: RTL203")
    write(project, {"evaluate.py": noqa})
    lint("--fix", "--select", "RTL203", ".")
    text = (project / "evaluate.py").read_text(encoding="utf-8")
    assert "axes=[0, 1])  # noqa: RTL203" in text  # suppressed: not fixed
    assert "axes=(1,)" in text and "frozenset({" in text
    assert "            -1,  # the same axis, by position" in text  # RTL404 not selected


def test_json_output_stays_json_with_the_summary_on_stderr(project: Path) -> None:
    import json

    result = lint("--fix", "--format", "json", ".")
    remaining = json.loads(result.stdout)
    assert [(f["path"], f["line"], f["code"]) for f in remaining] == LEFT_ALONE_FINDINGS
    assert "(4 fixed, " in result.stderr


# -- bytes outside the edit ------------------------------------------------------------------------
def test_crlf_line_endings_are_kept(project: Path) -> None:
    write(project, {"evaluate.py": EVALUATE.replace("\n", "\r\n").encode("utf-8")})
    diff = lint("--diff", ".")
    assert diff.stdout.replace("\r\n", "\n").endswith(EVALUATE_DIFF.split("\n", 2)[2])
    lint("--fix", ".")
    data = (project / "evaluate.py").read_bytes()
    assert data == EVALUATE_FIXED.replace("\n", "\r\n").encode("utf-8")
    assert lint("--diff", ".").exit_code == 0


def test_non_ascii_text_on_the_fixed_lines(project: Path) -> None:
    write(project, {"évaluation.py": UNICODE})
    before = found(lint("évaluation.py", "model.py"))
    assert before == [("évaluation.py", 8, "RTL203"), ("évaluation.py", 10, "RTL404")]
    result = lint("--fix", "évaluation.py", "model.py")
    assert result.exit_code == 0, result.output
    assert (project / "évaluation.py").read_text(encoding="utf-8") == UNICODE_FIXED


def test_latin1_file_with_a_coding_cookie_stays_latin1(project: Path) -> None:
    def latin1(text: str) -> bytes:
        body = text.split("\n", 1)[1].replace(" — ", " - ")
        return ("# -*- coding: latin-1 -*-\n" + body).encode("latin-1")

    write(project, {"latin.py": latin1(UNICODE)})
    result = lint("--fix", "latin.py", "model.py")
    assert result.exit_code == 0, result.output
    assert (project / "latin.py").read_bytes() == latin1(UNICODE_FIXED)


# -- fix_source: the guards ------------------------------------------------------------------------
def findings_for(root: Path, name: str) -> list:
    settings = config.load([str(root)], isolated=True)
    return [f for f in analyse([name, "model.py"], settings).findings if f.location.path == name]


def test_a_stale_finding_is_not_applied(project: Path) -> None:
    findings = findings_for(project, "evaluate.py")
    edited = EVALUATE.replace(
        "        x = normalise(batch", "        x = normalise( batch"
    ).encode()
    after, fixed = fix_source(edited, findings)
    assert [f.location.line for f in fixed] == [13, 16, 24]  # line 12 no longer reads as analysed
    assert b"normalise( batch, axes=[0, 1])" in after


def test_a_set_is_left_alone_where_frozenset_may_not_be_the_builtin(project: Path) -> None:
    shadowed = EVALUATE.replace(
        "import jax.numpy as jnp\n", "import jax.numpy as jnp\n\nfrozenset = set\n"
    )
    write(project, {"evaluate.py": shadowed})
    after, fixed = fix_source(shadowed.encode(), findings_for(project, "evaluate.py"))
    assert [f.code for f in fixed] == ["RTL203", "RTL203", "RTL404"]
    assert b"frozenset({" not in after and b"            {  # the classes" in after


def test_a_file_libcst_would_not_give_back_unchanged_is_left_alone(project: Path) -> None:
    # Old Mac line endings: libcst reads them but does not write them back as they were. The lines
    # and columns are those of the same text with \n endings.
    findings = findings_for(project, "evaluate.py")
    assert {f.code for f in findings} == ARGUMENT_FIXABLE
    source = EVALUATE.replace("\n", "\r").encode()
    assert fix_source(source, findings) == (source, ())


# -- the rule pages ------------------------------------------------------------------------------------
def test_fix_turns_the_rtl203_page_example_into_the_fixed_example(project: Path) -> None:
    page = parse_page(RULES_DIR / "RTL203.md")
    write(project, {"example.py": page.flagged_source or ""})
    result = lint("--fix", "example.py")
    assert result.exit_code == 0, result.output
    fixed = (project / "example.py").read_text(encoding="utf-8")
    assert EXPECT_MARKER.sub("", fixed) == page.fixed_source


def test_fix_changes_the_positional_call_of_the_rtl404_page_example(project: Path) -> None:
    # The flagged call there is the one passing by keyword; the positional call is the one to change.
    page = parse_page(RULES_DIR / "RTL404.md")
    write(project, {"example.py": page.flagged_source or ""})
    result = lint("--fix", "example.py")
    fixed = (page.flagged_source or "").replace("normalise(train, 1)", "normalise(train, axis=1)")
    assert (project / "example.py").read_text(encoding="utf-8") == fixed
    assert result.exit_code == 0 and found(result) == []


def test_a_byte_order_mark_is_kept(project: Path) -> None:
    write(project, {"evaluate.py": b"\xef\xbb\xbf" + EVALUATE.encode("utf-8")})
    lint("--fix", ".")
    assert (project / "evaluate.py").read_bytes() == b"\xef\xbb\xbf" + EVALUATE_FIXED.encode()


# -- the [*] marks of text output ------------------------------------------------------------------
MIXED = '''\
"""Calls ast can judge before libcst parses them, beside ones it cannot."""

from model import keep_classes, log_softmax, normalise, scaled


def score(batches, bias, extra, options):
    for batch in batches:
        a = scaled(batch, 2.0, bias)
        b = scaled(batch, temperature=2.0, bias=bias)  # by keyword: the call above is changed
        c = normalise(batch, *[[0, 1]])  # unpacked into the parameter
        d = normalise(batch, **{"axes": [0, 1]})
        e = keep_classes(batch, {0, 2})
        f = log_softmax(batch, axis=(1))
        g = log_softmax(batch, (1))  # parenthesised, by position
        yield a, b, c, d, e, f, g
'''

SHADOWED = """\
from model import keep_classes

frozenset = tuple  # the fix's frozenset would not be the builtin


def pick(logits):
    return keep_classes(logits, {0, 2})
"""


def marked(result: Result) -> list[tuple[str, int, str]]:
    """(path, line, code) of each finding line text output marks ``[*]``."""
    return [
        (match["path"], int(match["line"]), match["code"])
        for match in map(FINDING.match, result.stdout.splitlines())
        if match and " [*] " in match.string
    ]


def test_text_output_marks_what_libcst_alone_would_mark(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Text output asks every finding whether ``--fix`` fixes it. Where ast already shows there is
    no rewrite (an argument by keyword, unpacked, followed by a positional one, a set where
    ``frozenset`` is not the builtin) libcst does not parse the call: the marks stay those that
    trying every fix with libcst gives, non-ASCII lines (where ast does not decide) included."""
    write(project, {"mixed.py": MIXED, "shadowed.py": SHADOWED, "unicode.py": UNICODE})
    quick = lint(".")
    assert marked(quick) == [
        ("evaluate.py", 12, "RTL203"),
        ("evaluate.py", 13, "RTL203"),
        ("evaluate.py", 16, "RTL203"),
        ("evaluate.py", 24, "RTL404"),
        ("mixed.py", 9, "RTL404"),  # by keyword: the positional call above is changed
        ("mixed.py", 12, "RTL203"),
        ("mixed.py", 14, "RTL404"),
        ("unicode.py", 8, "RTL203"),
        ("unicode.py", 10, "RTL404"),
    ]
    assert "[*] 9 fixable with the `--fix` option." in quick.stderr
    answers: list[bool] = []
    ast_answer = fixes._may_rewrite

    def libcst_decides(*args: object) -> bool:
        answers.append(ast_answer(*args))  # type: ignore[arg-type]
        return True

    monkeypatch.setattr(fixes, "_may_rewrite", libcst_decides)
    slow = lint(".")
    assert (slow.stdout, slow.stderr, slow.exit_code) == (quick.stdout, quick.stderr, 1)
    assert answers.count(False) >= 8  # ast spared libcst those
