"""The fixtures that say so are run for real, to prove what their `# expect:` markers claim.

A fixture opts in with a first line `# jax: steps` on its program (the file itself, or `main.py` of a
folder), which takes the number of steps its loops run as its first argument. It is run with 2 and with 4
steps, under ``jax_explain_cache_misses``: a jitted function re-traces per step when it traces more often in
the longer run. A fixture with `# expect:` markers must have such a function; one without must have none,
whatever it traces while it warms up or while an enclosing jit traces (those traces do not grow with the
number of steps, which is what retracelint reports). All fixtures share one subprocess per step count.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from dynamic_support import RetraceReport, TracedFunction, count_retraces_many
from test_fixtures import FIXTURES, expectations

from retracelint.config import Settings
from retracelint.engine import analyse

OPT_IN = "# jax: steps"


def _program(project: Path) -> Path | None:
    program = project / "main.py" if project.is_dir() else project
    if not program.is_file():
        return None
    with program.open(encoding="utf-8") as source:
        return program if source.readline().strip() == OPT_IN else None


PROGRAMS = {p: prog for p in sorted(FIXTURES.iterdir()) if (prog := _program(p)) is not None}
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("jax") is None, reason="jax is not installed"
)


@pytest.fixture(scope="module")
def runs() -> dict[int, dict[Path, RetraceReport]]:
    programs = list(PROGRAMS.values())
    return {
        steps: dict(
            zip(
                PROGRAMS,
                count_retraces_many(programs, cwd=FIXTURES, timeout=240, argv=[str(steps)]),
                strict=True,
            )
        )
        for steps in (2, 4)
    }


def test_some_fixtures_opt_in() -> None:
    assert len(PROGRAMS) >= 1


def _reported(project: Path, function: TracedFunction) -> bool:
    """Whether a finding names ``function`` as its jitted function: jax places a decorated function at
    its first decorator, retracelint at its ``def`` (or at the ``jax.jit(...)`` call around a lambda)."""
    run = analyse([str(project)], Settings(cache=False, select=("RTL",)))
    sites = [f.jit_site for f in run.findings]
    sites += [route.jit_site for f in run.findings for route in f.other_routes]
    return any(
        site is not None
        and Path(site.location.path).name == Path(function.file).name
        and 0 <= site.location.line - function.line <= 3
        for site in sites
    )


@pytest.mark.parametrize("project", PROGRAMS, ids=lambda p: p.name)
def test_fixture_retraces_per_step_exactly_where_it_expects_findings(
    project: Path, runs: dict[int, dict[Path, RetraceReport]]
) -> None:
    short, long = runs[2][project], runs[4][project]
    assert not short.raised and not long.raised, short.summary() + long.summary()
    assert long.traces, "the program must call its jitted functions"
    growing = [f for f, count in long.traces.items() if count > short.traces.get(f, 0)]
    assert bool(growing) == bool(expectations(project)), long.summary()
    unreported = [str(f) for f in growing if not _reported(project, f)]
    assert not unreported, f"re-traces per step that no finding names: {unreported}"
    quiet = [str(f) for f in long.traces if f not in growing and _reported(project, f)]
    assert not quiet, f"findings on jitted functions that do not re-trace per step: {quiet}"
