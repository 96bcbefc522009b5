"""The example project really re-traces where its markers say, and its fixed copy never does.

``examples/run.py`` (with bugs, each marked ``# expect: RTLxxx``) and ``examples_fixed/run.py``
(the same program, fixed) each run once under ``tests/dynamic_support.py``'s runner, which records
JAX's own evidence: the ``TRACING CACHE MISS`` explanations logged with ``jax_explain_cache_misses``.
The two runs are made once per test session (``plain_runs``): tests/test_confirm_identical.py compares
what they print with what the programs print under ``retracelint confirm``.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from confirm_programs.support import once_per_session
from dynamic_support import count_retraces_many
from retrace_counter import summarise


def _jax_available() -> bool:
    try:
        return importlib.util.find_spec("jax") is not None
    except (ImportError, ValueError):
        return False


pytestmark = pytest.mark.skipif(
    not _jax_available(),
    reason="jax is not installed; running the example projects needs it (pip install jax)",
)

ROOT = Path(__file__).resolve().parents[1]
BUGGY, FIXED = ROOT / "examples", ROOT / "examples_fixed"
SAME_LINE_HINT = "but seen another function defined on the same line"
# Second example projects beside the trainer, each with its own program and tests
# (tests/test_confirm_examples.py); examples/run.py never imports them.
SECOND_PROJECTS = ("nnx_trainer", "eqx_trainer")
_MARKER = re.compile(r"#\s*expect:\s*(RTL\d{3}(?:\s*,\s*RTL\d{3})*)")


@dataclass(frozen=True)
class Bug:
    """One marked line of examples/ and the jitted function it makes re-trace."""

    file: str  # relative to examples/
    code: str
    snippet: str  # text on the marked line, to tell markers of one file apart
    jitted_file: str  # where JAX says the jitted Python function is defined (relative to examples/)
    jitted_name: str  # its __name__ as JAX reports it
    why: str  # a piece of JAX's explanation of the re-trace that this bug causes


BUGS = (
    Bug("trainer/data.py", "RTL103", "x[start : start + batch_size]",
        "trainer/model.py", "train_step", "* at x, now f32["),
    Bug("trainer/train.py", "RTL201", "step=step",
        "trainer/optim.py", "warmup_scale", "['step']"),
    Bug("trainer/train.py", "RTL202", "lr=lr",
        "trainer/optim.py", "sgd_update", "['lr']"),
    Bug("trainer/optim.py", "RTL301", "@jax.jit",
        "trainer/optim.py", "clip", SAME_LINE_HINT),
    Bug("trainer/evaluate.py", "RTL301", "jax.jit(lambda",
        "trainer/evaluate.py", "<lambda>", SAME_LINE_HINT),
    Bug("trainer/evaluate.py", "RTL204", "score_fn=lambda",
        "trainer/model.py", "score_batch", "['score_fn']"),
    Bug("trainer/evaluate.py", "RTL101", "x[:n]",
        "trainer/model.py", "accuracy_on", "* at x, now f32["),
    Bug("trainer/evaluate.py", "RTL104", "x[y == c]",
        "trainer/model.py", "forward", "* at x, now f32["),
    Bug("trainer/decode.py", "RTL102", "tokens.append",
        "trainer/model.py", "next_token_logits", "* at tokens, now i32["),
    Bug("trainer/decode.py", "RTL105", "jnp.arange(t)",
        "trainer/model.py", "gathered_next_token_logits", "* at positions, now i32["),
)  # fmt: skip


@dataclass(frozen=True)
class Traced:
    """What the runner saw of one jitted function (``retrace_counter.summarise``'s entry)."""

    name: str
    file: str
    line: int
    traces: int
    retraces: int
    reasons: tuple[str, ...]

    def label(self) -> str:
        return f"{self.name} ({self.file}:{self.line}): {self.traces} traces"


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str
    exception: str | None
    seconds: float
    traced: tuple[Traced, ...]

    def summary(self) -> dict:
        lines = [line for line in self.stdout.splitlines() if line.startswith("summary ")]
        assert lines, f"no summary line printed:\n{self.stdout}\n{self.stderr[-3000:]}"
        return json.loads(lines[-1].removeprefix("summary "))

    def find(self, project: Path, rel_file: str, name: str) -> Traced | None:
        path = str((project / rel_file).resolve())
        return next((t for t in self.traced if t.file == path and t.name == name), None)

    def describe(self) -> str:
        return "\n".join(t.label() + f", {t.retraces} re-traces" for t in self.traced)


def _run_both() -> dict[str, dict]:
    """Run both programs under the runner; plain JSON-able results by project name."""
    scripts = [project / "run.py" for project in (BUGGY, FIXED)]
    reports = count_retraces_many(scripts, cwd=ROOT)
    return {
        project.name: {
            "returncode": report.returncode,
            "stdout": report.stdout,
            "stderr": report.stderr,
            "exception": report.exception,
            "seconds": report.seconds,
            "traces": summarise([record.message for record in report.records]),
        }
        for project, report in zip((BUGGY, FIXED), reports, strict=True)
    }


def _to_run(raw: dict) -> Run:
    traced = tuple(
        Traced(
            t["name"],
            t["file"],
            t["line"],
            t["traces"],
            t["retraces"],
            tuple(r["why"] for r in t.get("reasons", [])),
        )
        for t in raw["traces"]
    )
    return Run(
        raw["returncode"], raw["stdout"], raw["stderr"], raw["exception"], raw["seconds"], traced
    )


def plain_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Run]:
    """Both programs, run once per test session even when pytest-xdist spreads the tests that need
    them over several workers."""
    raw = once_per_session(tmp_path_factory, "examples-dynamic", _run_both)
    return {project: _to_run(raw[project.name]) for project in (BUGGY, FIXED)}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Run]:
    return plain_runs(tmp_path_factory)


def _markers(project: Path) -> set[tuple[str, str, int]]:
    """(file, code, line) of every expect marker of the trainer project under project."""
    found = set()
    for path in sorted(project.rglob("*.py")):
        if path.relative_to(project).parts[0] in SECOND_PROJECTS:
            continue
        rel = path.relative_to(project).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            match = _MARKER.search(line)
            if match:
                for code in match.group(1).split(","):
                    found.add((rel, code.strip(), number))
    return found


def _marker_line(bug: Bug) -> int:
    lines = (BUGGY / bug.file).read_text(encoding="utf-8").splitlines()
    hits = [n for n, text in enumerate(lines, 1) if bug.snippet in text and _MARKER.search(text)]
    assert len(hits) == 1, f"{bug.file}: {len(hits)} marked lines contain {bug.snippet!r}"
    return hits[0]


def test_bug_table_matches_the_markers() -> None:
    table = {(bug.file, bug.code, _marker_line(bug)) for bug in BUGS}
    assert table == _markers(BUGGY)
    assert len({code for _, code, _ in table}) >= 6
    assert _markers(FIXED) == set(), "examples_fixed/ must carry no expect markers"


def test_both_programs_finish_cleanly(runs: dict[Path, Run]) -> None:
    for project, run in runs.items():
        assert run.exception is None, f"{project.name}: {run.exception}\n{run.stderr[-3000:]}"
        assert run.returncode == 0, f"{project.name}: exit {run.returncode}\n{run.stderr[-3000:]}"


@pytest.mark.parametrize("bug", BUGS, ids=lambda b: f"{b.code}-{Path(b.file).stem}-{b.jitted_name}")
def test_each_bug_really_retraces(runs: dict[Path, Run], bug: Bug) -> None:
    run = runs[BUGGY]
    traced = run.find(BUGGY, bug.jitted_file, bug.jitted_name)
    assert traced is not None, f"{bug.jitted_name} was never traced:\n{run.describe()}"
    assert traced.retraces >= 1, f"{bug.code} did not re-trace {traced.label()}"
    assert any(bug.why in reason for reason in traced.reasons), (
        f"no re-trace of {bug.jitted_name} explained with {bug.why!r}:\n"
        + "\n".join(traced.reasons)
    )


def test_only_the_marked_bugs_retrace(runs: dict[Path, Run]) -> None:
    """The near misses in examples/ stay clean at run time.

    Padded eval batches, hoisted jits, the frozen config and constant static values: every user
    function that re-traces is one that a marked bug reaches.
    """
    run = runs[BUGGY]
    reached = {(str((BUGGY / b.jitted_file).resolve()), b.jitted_name) for b in BUGS}
    user = [t for t in run.traced if t.file.startswith(str(BUGGY.resolve()) + os.sep)]
    unexpected = [t.label() for t in user if t.retraces and (t.file, t.name) not in reached]
    assert unexpected == []
    assert any(t.name == "masked_correct" and t.traces == 1 for t in user), run.describe()


def test_fixed_project_never_retraces(runs: dict[Path, Run]) -> None:
    run = runs[FIXED]
    retraced = [t.label() + "\n  " + "\n  ".join(t.reasons) for t in run.traced if t.retraces]
    assert retraced == []
    # The fixed program still exercises every part: train, evaluate and decode all jit something.
    names = {t.name for t in run.traced}
    assert {"train_step", "sgd_update", "masked_correct", "masked_next_token_logits"} <= names


def _check_summary(summary: dict, project: str) -> None:
    history = summary["history"]
    losses = [h["train_loss"] for h in history]
    val_losses = [h["val_loss"] for h in history]
    assert len(history) >= 2, project
    assert all(math.isfinite(v) for v in losses + val_losses), (project, history)
    assert losses[-1] < losses[0], (project, losses)
    assert val_losses[-1] < val_losses[0], (project, val_losses)
    assert [h["lr"] for h in history] == sorted((h["lr"] for h in history), reverse=True)
    # Four classes: chance is 0.25; the synthetic clusters are easy.
    assert 0.5 < summary["test_accuracy"] <= 1.0, project
    assert 0.0 < summary["mean_true_class_prob"] <= 1.0, project
    assert all(0.0 <= a <= 1.0 for a in summary["per_class_accuracy"]), project
    assert all(0.0 <= a <= 1.0 for a in summary["subset_accuracy"].values()), project
    for tokens in (summary["greedy_decode"], summary["buffered_decode"]):
        assert tokens[:3] == [1, 2, 3] and len(tokens) == 7, (project, tokens)
        assert all(isinstance(t, int) and 0 <= t < 16 for t in tokens), (project, tokens)


def test_outputs_are_sane(runs: dict[Path, Run]) -> None:
    buggy, fixed = runs[BUGGY].summary(), runs[FIXED].summary()
    _check_summary(buggy, "examples")
    _check_summary(fixed, "examples_fixed")
    # Same toy LM and the same greedy rule: every decoder must agree, bugs or not.
    assert buggy["greedy_decode"] == buggy["buffered_decode"] == fixed["greedy_decode"]
    # Accuracy through padded batches counts the padding rows out.
    assert buggy["subset_accuracy"][str(90)] == pytest.approx(buggy["test_accuracy"], abs=1e-6)
    assert fixed["subset_accuracy"][str(90)] == pytest.approx(fixed["test_accuracy"], abs=1e-6)
