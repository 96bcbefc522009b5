"""A long-lived process (the language server) logs what the rules of a run read of the project
(``readlog``) and, after an edit, asks those reads again of the new project: where every answer is
the same, the rules' findings are the last run's, else the rules run again. Each run here is
compared, finding by finding (places, messages, call paths, related information, in order), with
a run from scratch that neither memory nor cache helps."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
import test_one_per_cause as cause
import test_paths_of_one_run as paths
import test_severity_bound_told as bounds
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_incremental_rules import DATA, MODEL, _tree

from retracelint import readlog, server
from retracelint.callgraph import JitTarget, Project, Symbols
from retracelint.callgraph.symbols import Registered
from retracelint.config import Settings
from retracelint.engine import analyse_projects
from retracelint.model import Finding
from retracelint.session import Memory, Watch

# A module the rules never ask about: nothing of it is jitted, reaches a jit or is reached
# (it imports one that jits, so it is analysed).
UNITS = """
from lib import model


def to_ms(seconds):
    return seconds * 1000


def describe():
    return model.__name__
"""

TRAIN = """
import numpy as np

from lib import data, model


def main():
    x = np.ones(64)
    for n in range(1, 64):
        data.run_one(x, n)
    trainer = model.Trainer()
    trainer.fit(x)


if __name__ == "__main__":
    main()
"""


def _kept(root: Path, memory: Memory, cache: Path) -> list[Finding]:
    """What the server finds: its memory kept from run to run, and its cache."""

    def settings_for(found: Path | None) -> Settings:
        return replace(server.settings_for(found), cache_dir=str(cache), jobs=1)

    return analyse_projects([str(root)], settings_for, watch=Watch(memory))[1].findings


def _scratch(root: Path) -> list[Finding]:
    def settings_for(found: Path | None) -> Settings:
        return replace(server.settings_for(found), cache=False, jobs=1)

    return analyse_projects([str(root)], settings_for)[1].findings


def _told(findings: list[Finding]) -> str:
    """The findings byte for byte: every field, also those equality leaves out (the driver that
    ``filters.one_per_cause`` folds by, the paired call, the source line)."""
    return repr(findings)


@pytest.fixture()
def replayed(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each run that linked asked the last run's reads again and found them the same."""
    seen: list[bool] = []
    original = readlog.Replay.holds

    def spy(self: readlog.Replay, asked: readlog.Asked, facts: tuple[object, ...]) -> bool:
        seen.append(original(self, asked, facts))
        return seen[-1]

    monkeypatch.setattr(readlog.Replay, "holds", spy)
    return seen


def test_edits_replay_the_rules_where_they_read_the_same_and_run_them_where_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, replayed: list[bool]
) -> None:
    files = {
        "lib/__init__.py": "",
        "lib/model.py": MODEL,
        "lib/data.py": DATA,
        "lib/units.py": UNITS,
        "scripts/train.py": TRAIN,
    }
    project = _tree(tmp_path / "proj", files)
    monkeypatch.chdir(project)
    memory, cache = Memory(), tmp_path / "cache"
    train, model, units = (
        project / p for p in ("scripts/train.py", "lib/model.py", "lib/units.py")
    )
    sliced, rebuilt = ("RTL101", "data.py", "error"), ("RTL301", "model.py", "warning")
    rebuilt_always = ("RTL301", "model.py", "error")
    steps: FileSteps = [
        # The first run: nothing to replay.
        (units, ("", ""), [], [sliced, rebuilt]),
        # A function added to a module the rules read nothing of: its summary changed (linked
        # alone), what the rules read did not.
        (units, ("", "\n\ndef to_s(ms):\n    return ms / 1000\n"), [True], [sliced, rebuilt]),
        # Its body changed: the same.
        (units, ("* 1000", "* 1e3"), [True], [sliced, rebuilt]),
        # The loop passes one size: the finding in data.py, another file, is gone.
        (train, ("data.run_one(x, n)", "data.run_one(x, 8)"), [False], [rebuilt]),
        # A size that changes again: it is found again.
        (train, ("data.run_one(x, 8)", "data.run_one(x, n // 2)"), [False], [sliced, rebuilt]),
        # Only an answer the rules read changes (what __init__ stores in what fit() walks: no
        # call, no call site moves: an iterator, walked once): the rules run again, and find the
        # rebuilt jit an error.
        (
            model,
            ("self.widths = [1, 2, 3]", "self.widths = iter([1, 2, 3])"),
            [False],
            [sliced, rebuilt_always],
        ),
        # units.py again: the last run's reads hold.
        (units, ("", "\n\ndef to_h(s):\n    return s / 3600\n"), [True], [sliced, rebuilt_always]),
        # An edit undone: that run's findings, kept by its files' bytes (no link, no rules).
        (units, ("\n\ndef to_h(s):\n    return s / 3600\n", ""), [], [sliced, rebuilt_always]),
        # A module the rules read nothing of deleted: another project (its files), run afresh.
        (units, None, [], [sliced, rebuilt_always]),
    ]
    _edit_files(project, steps, replayed, memory, cache)


FileSteps = list[tuple[Path, tuple[str, str] | None, list[bool], list[tuple[str, str, str]] | None]]


def _edit_files(
    project: Path, steps: FileSteps, seen: list[bool], memory: Memory, cache: Path
) -> None:
    """Each step replaces, in a file, an old text with a new one (an empty old text: appended;
    None: the file deleted); its run must find what a run from scratch finds, byte for byte,
    ``seen`` (what a spy noted in it) must be as given, and the findings (code, file, severity)
    as shown, where given."""
    for path, change, noted, shown in steps:
        if change is None:
            path.unlink()
        else:
            old, new = change
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace(old, new, 1) if old else text + new, encoding="utf-8")
        seen.clear()
        now = _kept(project, memory, cache)
        assert _told(now) == _told(_scratch(project)), (path.name, change)
        assert seen == noted, (path.name, change)
        if shown is not None:
            found = [(f.code, Path(f.location.path).name, f.severity) for f in now]
            assert found == shown, (path, change)


def test_a_replay_gives_the_findings_with_their_places_and_chains(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, replayed: list[bool]
) -> None:
    """The replayed findings are the last run's, not made again: places, call paths and the jit
    site as a run from scratch gives them, filtered again (a ``# noqa`` added since counts)."""
    files = {"lib/__init__.py": "", "lib/model.py": MODEL, "lib/data.py": DATA}
    project = _tree(tmp_path / "proj", {**files, "lib/units.py": UNITS, "train.py": TRAIN})
    monkeypatch.chdir(project)
    memory, cache = Memory(), tmp_path / "cache"
    first = _kept(project, memory, cache)
    units, data = project / "lib" / "units.py", project / "lib" / "data.py"
    units.write_text(units.read_text() + "\n\ndef to_s(ms):\n    return ms / 1000\n")
    again = _kept(project, memory, cache)
    assert replayed == [True]
    assert _told(again) == _told(first) == _told(_scratch(project))
    assert {f.code for f in again} == {"RTL101", "RTL301"}
    sliced = next(f for f in again if f.code == "RTL101")
    assert (sliced.location.path, sliced.location.line) == (str(data), 6)
    assert [step.function for step in sliced.call_path][-2:] == ["train.main", "lib.data.run_one"]
    # A noqa on the finding's line and a function appended to units.py: replayed, filtered.
    data.write_text(data.read_text().replace("x[:n])", "x[:n])  # noqa: RTL101"))
    units.write_text(units.read_text() + "\n\ndef to_min(s):\n    return s / 60\n")
    replayed.clear()
    quiet = _kept(project, memory, cache)
    assert _told(quiet) == _told(_scratch(project))
    assert "RTL101" not in {f.code for f in quiet}


# Session 14's evidence, which the rules read of the project as they run: whether two calls sit on
# the two sides of a test that keeps its side for the whole run (``run_arms``: the arms around each
# call, the callers of each function in the run, which functions start a program); whether any module
# reads an attribute a jit is kept in (``Propagation.attribute_used``, ``ModuleSummary.read``); what
# bounds a finding's re-traces (the driver's loop, ``evidence._bound``), and the fold of one cause's
# findings (``filters.one_per_cause``, by driver). Each edit changes only what one of them reads, in
# one module, while the findings stay in another.
_KEPT_JIT = Path(__file__).parent / "fixtures" / "jits_kept_for_later_negative"
_PER_BATCH = "if batch % 2 == 0:"
_LISTED, _GROWING = 'for name in ["small", "base", "large"]:', "for name in range(10**6):"
_FIT_LOOP = "simulate_parametrized(jnp.arange(8.0) * step)"
_SCORED, _SOLVED = "total += score(k, matrix)", "\n        total += solve(16 + k, matrix)"
_BOTH_LOOPS = ["RTL105 solver.py error", "RTL101 solver.py error"]
_BOUNDED_SOLVE = ["RTL105 solver.py warning", "RTL101 solver.py error"]
_MODES_IN_FIT = '\n        import run\n\n        run.main("lut" if step % 2 else "kernel", 3)'

_SCANS = "return rollout(jnp.ones(8), x)"
# A benchmark whose loop runs a step that calls a helper, then the scan through another module.
_ROUTES = {
    "helpers.py": "import jax.numpy as jnp\n\nfrom model import rollout\n\n\ndef helper(x):\n"
    "    return x + 1\n",
    "scans.py": f"import jax.numpy as jnp\n\nfrom model import rollout\n\n\ndef scan(x):\n    {_SCANS}\n",
    "steps.py": "from helpers import helper\nfrom scans import scan\n\n\ndef run(x):\n"
    "    helper(x)\n    return scan(x)\n",
    "bench.py": "import sys\n\nfrom steps import run\n\n\ndef main(configs):\n"
    "    for width in configs:\n        run(width)\n\n\nif __name__ == '__main__':\n"
    "    main(sys.argv)\n",
}


def _detector() -> dict[str, str]:
    return {
        "detector/__init__.py": "",
        "detector/sim.py": paths.SIMULATION,
        "fit.py": paths.FIT,
        "run.py": paths._main(paths.BY_MODE, paths.ONE_RUN),
    }


_FAMILIES = {
    # A run-wide mode (main reads it once) turned into a per-batch test and back: the two calls of
    # parse_output meet again; fit.py, another program, then runs main once per step with both
    # modes: a run reaches both sides.
    "run-wide arms": (
        _detector,
        [
            ("run.py", 'if mode == "lut":', _PER_BATCH, ["RTL401 sim.py warning"]),
            ("run.py", _PER_BATCH, 'if mode == "lut":', []),
            ("fit.py", _FIT_LOOP, _FIT_LOOP + _MODES_IN_FIT, ["RTL401 sim.py warning"]),
            ("fit.py", _MODES_IN_FIT, "", []),
        ],
    ),
    # The jit a runtime keeps per solve is read in the solver's loop (another module), then not.
    "attribute read elsewhere": (
        lambda: {p.name: p.read_text(encoding="utf-8") for p in _KEPT_JIT.glob("*.py")},
        [
            (
                "solver.py",
                "q = runtime.step(q)",
                "q = runtime.step(q)\n        q = runtime.project(q)",
                ["RTL301 runtime.py error"],
            ),
            ("solver.py", "\n        q = runtime.project(q)", "", []),
        ],
    ),
    # A benchmark's loop over its configurations, then over three listed ones, then a growing one:
    # the scan the loop rebuilds is bounded, then not.
    "listed sweep to growing": (
        lambda: {"model.py": bounds._MODEL, "benchmark.py": bounds._BENCHMARK},
        [
            ("benchmark.py", "for name in configs_to_run:", _LISTED, ["RTL301 model.py warning"]),
            ("benchmark.py", _LISTED, _GROWING, ["RTL301 model.py error"]),
            ("benchmark.py", _GROWING, _LISTED, ["RTL301 model.py warning"]),
        ],
    ),
    # A helper that a step of the benchmark's loop calls first (another module) starts to run the
    # scan: the finding's call path runs through it, the first way the loop reaches the scan.
    "driver's first route": (
        lambda: {"model.py": bounds._MODEL, **_ROUTES},
        [
            ("helpers.py", "return x + 1", _SCANS, ["RTL301 model.py error"]),
            ("helpers.py", _SCANS, "return x + 1", ["RTL301 model.py error"]),
        ],
    ),
    # The second loop of a benchmark solves too, then not; then the first loop walks three listed
    # sizes: the three findings of its cause, folded into one, are bounded.
    "one cause folded": (
        lambda: {"solver.py": cause._SOLVER, "bench.py": cause._BENCH},
        [
            ("bench.py", _SCORED, _SCORED + _SOLVED, _BOTH_LOOPS),
            ("bench.py", _SOLVED, "", _BOTH_LOOPS),
            ("bench.py", "for step in range(steps):", "for step in [1, 2, 3]:", _BOUNDED_SOLVE),
        ],
    ),
}


@pytest.mark.parametrize("family", sorted(_FAMILIES))
def test_edits_of_what_the_evidence_reads_find_what_a_run_from_scratch_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, family: str
) -> None:
    """Each edit changes what the rules read of the project (no call moves elsewhere): the log
    asked again must tell, and the findings, folds and messages are a run from scratch's."""
    files, steps = _FAMILIES[family]
    project = _tree(tmp_path / "proj", files())
    monkeypatch.chdir(project)
    memory, cache = Memory(), tmp_path / "cache"
    _kept(project, memory, cache)
    for name, old, new, shown in steps:
        path = project / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        now = _kept(project, memory, cache)
        assert _told(now) == _told(_scratch(project)), (name, new)
        assert [f"{f.code} {Path(f.location.path).name} {f.severity}" for f in now] == shown


_FIXTURES = Path(__file__).parent / "fixtures"
# Projects of several modules, with findings across them.
_PROJECTS = (
    "callers_linked_in_rounds",
    "flips_traced_back",
    "overrides_called_from_a_base",
    "penalties_from_two_entry_points",
    "static_holders_rebuilt",
)
_EDITS = ("append", "digit", "drop_line", "repeat_line")


def _edit(text: str, kind: str, at: int) -> str:
    """One edit of a module's text: a function appended, a digit changed, a line dropped or
    repeated (which may leave it not parsing: a run shows that file's RTL000)."""
    lines = text.splitlines(keepends=True)
    if kind == "append" or not lines:
        return text + f"\n\ndef _added_{at}(x):\n    return x + {at}\n"
    if kind == "digit":
        places = [i for i, c in enumerate(text) if c.isdigit()]
        if not places:
            return text + f"\n_CONSTANT_{at} = {at}\n"
        i = places[at % len(places)]
        return text[:i] + str((int(text[i]) + 1) % 10) + text[i + 1 :]
    line = at % len(lines)
    if kind == "drop_line":
        return "".join(lines[:line] + lines[line + 1 :])
    return "".join(lines[: line + 1] + lines[line:])


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    name=st.sampled_from(_PROJECTS),
    edits=st.lists(
        st.tuples(st.integers(0, 50), st.sampled_from(_EDITS), st.integers(0, 10_000)),
        min_size=1,
        max_size=4,
    ),
)
def test_random_edits_of_fixtures_find_what_a_run_from_scratch_finds(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    edits: list[tuple[int, str, int]],
) -> None:
    root = tmp_path_factory.mktemp("edits")
    project = root / name
    shutil.copytree(_FIXTURES / name, project)
    (project / "pyproject.toml").write_text('[project]\nname = "fixture"\n', encoding="utf-8")
    # A module that imports one of the project's, which nothing reads: edits of it replay.
    first = ".".join(min(project.rglob("*.py")).relative_to(project).with_suffix("").parts)
    extra = f"import {first}  # noqa: F401\n\n\ndef unused(x):\n    return x + 1\n"
    (project / "bystander.py").write_text(extra, encoding="utf-8")
    monkeypatch.chdir(project)
    memory, cache = Memory(), root / "cache"
    modules = sorted(project.rglob("*.py"))
    assert _told(_kept(project, memory, cache)) == _told(_scratch(project))
    for which, kind, at in edits:
        path = modules[which % len(modules)]
        path.write_text(_edit(path.read_text(encoding="utf-8"), kind, at), encoding="utf-8")
        now = _kept(project, memory, cache)
        assert _told(now) == _told(_scratch(project)), (path.name, kind, at)


# Helpers whose callers tell the traced roots what ``fn`` is: one hands it to a transform (a
# lookup of ``ops`` of what the callers pass), one jits it (the jit's binding); neither is a call
# site's lookup, and both read the script's call, which the script's edit changes.
HELPERS = {
    "handed to a transform": (
        "from jax import lax\n\n\ndef scan_over(fn, xs):\n    return lax.map(fn, xs)\n",
        lambda project: ("lib.ops.scan_over", ("param", "fn")) in project._refs,
    ),
    "jitted": (
        "import jax\n\n\ndef scan_over(fn, xs):\n    return jax.jit(fn)\n",
        lambda project: JitTarget("lib.ops", 0, bound=False) in project._bindings,
    ),
}

WORK = """
import jax


def body(x):
    return x + 1


def clearing(xs):
    for x in xs:
        jax.clear_caches()
        step(x)


@jax.jit
def step(x):
    return x * 2
"""

SCANNING = """
import numpy as np

from lib import ops, work


def main():
    xs = np.ones((4, 8))
    ops.scan_over(work.body, xs)


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize("helper", sorted(HELPERS))
def test_a_relink_takes_over_the_lookups_whose_links_it_left_and_finds_the_others_again(
    helper: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ops, holds = HELPERS[helper]
    files = {"lib/__init__.py": "", "lib/ops.py": ops, "lib/work.py": WORK}
    project = _tree(tmp_path / "proj", {**files, "scripts/run.py": SCANNING})
    monkeypatch.chdir(project)
    kept: list[bool] = []  # whether each relink took over what the helper's lookup found
    original = Project._take_over

    def spy(self: Project, *args: object) -> None:
        original(self, *args)  # type: ignore[arg-type]
        kept.append(holds(self))

    monkeypatch.setattr(Project, "_take_over", spy)
    memory, cache = Memory(), tmp_path / "cache"
    script = project / "scripts/run.py"
    cleared = ("RTL302", "work.py", 11)
    steps = [
        (("", ""), [], [cleared]),
        # A function appended to the script (imported by none: linked alone): the call of
        # ``scan_over`` is as it was, so what its callers pass is taken over.
        (("", "\n\ndef later():\n    return 0\n"), [True], [cleared]),
        # The script hands ``clearing`` over instead: traced now, its clearing loop never runs
        # eagerly. The lookup read the callers of ``scan_over``, which changed: made again.
        (("work.body, xs", "work.clearing, xs"), [False], []),
        # And back, with another function of the script changed (not the text of a run before).
        (("work.clearing, xs", "work.body, xs", "return 0", "return int(0)"), [False], [cleared]),
        # Taken over again after an edit of that other function alone.
        (("int(0)", "float(0)"), [True], [cleared]),
    ]
    _edit_in_steps(script, steps, kept, memory, cache)


Steps = list[tuple[tuple[str, ...], list[bool], list[tuple[str, str, int]]]]


def _edit_in_steps(
    script: Path, steps: Steps, kept: list[bool], memory: Memory, cache: Path
) -> None:
    """Each step replaces, in ``script``, each old text with the new one after it (an empty old
    text: appended); its run must find what a run from scratch finds, byte for byte, show the
    findings given, and have taken over (or not) the lookup ``kept`` is told of."""
    project = script.parents[1]
    for change, takes, shown in steps:
        text = script.read_text(encoding="utf-8")
        for old, new in zip(change[::2], change[1::2], strict=True):
            text = text.replace(old, new, 1) if old else text + new
        script.write_text(text, encoding="utf-8")
        kept.clear()
        now = _kept(project, memory, cache)
        assert _told(now) == _told(_scratch(project)), change
        assert kept == takes, change
        found = [(f.code, Path(f.location.path).name, f.location.line) for f in now]
        assert found == shown, change


# The script hands ``scan_over`` a function that picks the function to jit: the jit's binding
# reads the call ``make()``, whose targets stay the script's ``pick`` whatever it returns.
PICKING = """
import numpy as np

from lib import ops, work


def pick():
    return work.body


def main():
    xs = np.ones((4, 8))
    ops.scan_over(pick, xs)


if __name__ == "__main__":
    main()
"""


def test_a_relink_makes_again_the_lookups_that_read_what_an_edited_function_returns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ops = "import jax\n\n\ndef scan_over(make, xs):\n    return jax.jit(make())(xs)\n"
    files = {"lib/__init__.py": "", "lib/ops.py": ops, "lib/work.py": WORK}
    project = _tree(tmp_path / "proj", {**files, "scripts/run.py": PICKING})
    monkeypatch.chdir(project)
    kept: list[bool] = []  # whether each relink took over the binding of the jit of ``ops``
    original = Project._take_over

    def spy(self: Project, *args: object) -> None:
        original(self, *args)  # type: ignore[arg-type]
        kept.append(JitTarget("lib.ops", 0, bound=False) in self._bindings)

    monkeypatch.setattr(Project, "_take_over", spy)
    cleared = ("RTL302", "work.py", 11)
    steps: Steps = [
        (("", ""), [], [cleared]),
        (("", "\n\ndef later():\n    return 0\n"), [True], [cleared]),
        # ``pick`` returns ``clearing``: jitted now, its loop never runs eagerly. No call's
        # targets changed, what the call of ``pick`` returns did: the jit's function is another
        # (the whole project is linked).
        (("return work.body", "return work.clearing"), [], []),
        # Renamed, returning ``body`` again: another module's call resolved to it by the old name
        # (the whole project is linked: the script names the new one).
        (
            ("def pick", "def choose", "(pick, xs)", "(choose, xs)", ".clearing", ".body"),
            [],
            [cleared],
        ),
        # Removed, a lambda picking ``clearing`` handed over instead.
        (
            (
                "def choose():\n    return work.body\n",
                "",
                "(choose, xs)",
                "(lambda: work.clearing, xs)",
            ),
            [],
            [],
        ),
        # The lambda picks ``body``: linked alone, its call's targets are the lambda still.
        (("lambda: work.clearing", "lambda: work.body"), [], [cleared]),
    ]
    _edit_in_steps(project / "scripts/run.py", steps, kept, Memory(), tmp_path / "cache")


def test_a_run_takes_over_the_symbol_tables_with_the_edited_modules_registered_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"lib/__init__.py": "", "lib/model.py": MODEL, "lib/data.py": DATA}
    project = _tree(tmp_path / "proj", {**files, "lib/units.py": UNITS, "scripts/train.py": TRAIN})
    monkeypatch.chdir(project)
    kept: list[bool] = []  # whether each run that linked took the last run's tables over
    original = Symbols._kept

    def spy(self: Symbols, last: Registered) -> bool:
        kept.append(original(self, last))
        return kept[-1]

    monkeypatch.setattr(Symbols, "_kept", spy)
    memory, cache = Memory(), tmp_path / "cache"
    train, model, units = (
        project / p for p in ("scripts/train.py", "lib/model.py", "lib/units.py")
    )
    sliced, rebuilt = ("RTL101", "data.py", "error"), ("RTL301", "model.py", "warning")
    steps: FileSteps = [
        (train, ("", ""), [], [sliced, rebuilt]),
        # A body of the script changed, its functions the same: its summary registered again.
        (train, ("data.run_one(x, n)", "data.run_one(x, 8)"), [True], [rebuilt]),
        # A method of another module: what the rules read of the class is another value now.
        (
            model,
            ("self.widths = [1, 2, 3]", "self.widths = iter([1, 2, 3])"),
            [True],
            [("RTL301", "model.py", "error")],
        ),
        # A function added: registered in its module's place, every module registered again.
        (units, ("", "\n\ndef to_s(ms):\n    return ms / 1000\n"), [False], None),
        # Both edits of the first two files undone at once, after a run that took nothing over.
        (train, ("data.run_one(x, 8)", "data.run_one(x, n)"), [True], None),
        (model, ("iter([1, 2, 3])", "[1, 2, 3]"), [True], [sliced, rebuilt]),
    ]
    _edit_files(project, steps, kept, memory, cache)


def test_a_file_the_prescan_leaves_out_keeps_its_summary_while_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file the pre-scan leaves out (no jax, imported by none) has one summary object while its
    bytes are the same (``Memory.bare``), what is kept by summary object then holds for it; an
    edit that gives it a syntax error, and one that takes it away, show and drop its RTL000 in
    the runs after them too, each run's findings a run from scratch's."""
    files = {"lib/__init__.py": "", "lib/model.py": MODEL, "lib/data.py": DATA}
    notes_text = "VERSION = 1\n"
    project = _tree(
        tmp_path / "proj", {**files, "lib/notes.py": notes_text, "scripts/train.py": TRAIN}
    )
    monkeypatch.chdir(project)
    memory, cache = Memory(), tmp_path / "cache"
    train, notes = project / "scripts" / "train.py", project / "lib" / "notes.py"

    def settings_for(found: Path | None) -> Settings:
        return replace(server.settings_for(found), cache_dir=str(cache), jobs=1)

    def run(path: Path, old: str, new: str) -> object:
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        done = analyse_projects([str(project)], settings_for, watch=Watch(memory))[1]
        assert _told(done.findings) == _told(_scratch(project))
        broken = [f for f in done.findings if f.location.path.endswith("notes.py")]
        assert [f.code for f in broken] == (["RTL000"] if "(" in notes.read_text() else [])
        return next(s for s in done.summaries if s.path.endswith("notes.py"))

    # Each edit of the script passes another size, a state no run before saw: the run links,
    # and gives its summaries.
    sizes = iter(range(2, 9))

    def resized() -> object:
        call = re.search(r"data\.run_one\(x, \w+\)", train.read_text(encoding="utf-8"))
        assert call is not None
        return run(train, call.group(), f"data.run_one(x, {next(sizes)})")

    run(train, "", "")
    first = resized()
    assert resized() is first
    run(notes, notes_text, "VERSION = (\n")
    broken = resized()
    assert resized() is broken is not first
    run(notes, "VERSION = (\n", notes_text)
    mended = resized()
    assert resized() is mended
