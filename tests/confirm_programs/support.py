"""Helpers for the confirm tests: hand-written findings read from the programs' comments, and a
runner for ``python -m retracelint.confirm``.

A program marks its jit sites and the findings a static pass would report:

* ``# site: NAME`` on the ``def`` line of a jitted function, or on the ``jax.jit(...)`` line;
* ``# finding: CODE site=NAME [param=P] expect=STATUS`` on the line to fix. ``STATUS`` is what
  ``retracelint confirm`` must say (``confirmed``, ``not re-traced``, ``inconclusive``,
  ``not reached``; the words after ``expect=`` up to the end of the comment).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from dynamic_support import FAST_COMPILE_FLAGS
from limits import HANG_S

from retracelint.confirm.plan import build_plan
from retracelint.model import Finding, JitSite, Location

PROGRAMS = Path(__file__).resolve().parent
ROOT = PROGRAMS.parent.parent
_SITE = re.compile(r"#\s*site:\s*(\w+)")
_FINDING = re.compile(
    r"#\s*finding:\s*(RTL\d+)\s+site=(\w+)(?:\s+param=(\w+))?\s+expect=([a-z -]+?)\s*(?:#|$)"
)


def jax_available() -> bool:
    try:
        return importlib.util.find_spec("jax") is not None
    except (ImportError, ValueError):
        return False


@dataclass(frozen=True)
class Expectation:
    program: str
    code: str
    line: int
    site: str
    parameter: str | None
    status: str


def program_findings(name: str) -> tuple[list[Finding], list[Expectation]]:
    path = PROGRAMS / name
    rel = path.relative_to(ROOT).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    sites = {m.group(1): i for i, text in enumerate(lines, 1) if (m := _SITE.search(text))}
    findings, expectations = [], []
    for i, text in enumerate(lines, 1):
        m = _FINDING.search(text)
        if not m:
            continue
        code, site, param, status = m.group(1), m.group(2), m.group(3), m.group(4).strip()
        col = len(text) - len(text.lstrip()) + 1
        jit_site = JitSite(
            function=f"{path.stem}.{site}",
            name=site,
            location=Location(rel, sites[site], 1),
            wrapper="jax.jit",
        )
        findings.append(
            Finding(
                code=code,
                message=f"{code} at {site} (hand-written for the test)",
                location=Location(rel, i, col),
                jit_site=jit_site,
                parameter=param,
            )
        )
        expectations.append(Expectation(name, code, i, site, param, status))
    return findings, expectations


def write_plan(findings: list[Finding], path: Path) -> Path:
    plan = build_plan(findings, root=ROOT)
    path.write_text(json.dumps(plan.to_json()), encoding="utf-8")
    return path


def child_environment(env: dict[str, str] | None = None) -> dict[str, str]:
    """The test process's environment, minus jax settings that would change what programs do."""
    full = dict(os.environ if env is None else env)
    full["PYTHONPATH"] = str(ROOT) + os.pathsep + full.get("PYTHONPATH", "")
    full["PYTHONDONTWRITEBYTECODE"] = "1"
    # Faster XLA compiles; traces (what confirm looks at) happen before XLA sees anything. The flags
    # of the runs without confirm (tests/dynamic_support.py), whose output these runs' must equal.
    full["XLA_FLAGS"] = f"{full.get('XLA_FLAGS', '')} {FAST_COMPILE_FLAGS}".strip()
    for name in ("JAX_NO_TRACING", "JAX_DISABLE_JIT", "JAX_ENABLE_X64", "JAX_EXPLAIN_CACHE_MISSES"):
        full.pop(name, None)
    for name in (
        "RETRACELINT_CONFIRM_PLAN",
        "RETRACELINT_CONFIRM_RUNTIME",
        "RETRACELINT_PYTEST_EVENTS",
    ):
        full.pop(name, None)
    full.pop("PYTEST_XDIST_WORKER", None)
    full.pop("PYTEST_CURRENT_TEST", None)
    return full


@contextlib.contextmanager
def exclusive(lock_path: Path) -> Iterator[None]:
    """Hold an exclusive lock on lock_path (no locking where fcntl is missing)."""
    try:
        import fcntl
    except ImportError:  # Windows: each xdist worker runs the programs itself
        yield
        return
    with open(lock_path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def once_per_session(tmp_path_factory: Any, name: str, compute: Callable[[], Any]) -> Any:
    """compute() once per test session, even when pytest-xdist spreads the tests that need it over
    several workers (they share the parent of their base temp directory); JSON-able results."""
    base = tmp_path_factory.getbasetemp()
    shared = (
        base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    ) / "retracelint-confirm"
    shared.mkdir(exist_ok=True)
    result = shared / f"{name}.json"
    with exclusive(shared / f"{name}.lock"):
        if result.exists():
            return json.loads(result.read_text(encoding="utf-8"))
        value = compute()
        result.write_text(json.dumps(value), encoding="utf-8")
        return value


@dataclass
class ConfirmRun:
    returncode: int
    stdout: str
    stderr: str
    report: dict

    def to_json(self) -> dict:
        return asdict(self)

    def finding(self, program: str, line: int, code: str) -> dict:
        for f in self.report["findings"]:
            if f["path"].endswith(program) and f["line"] == line and f["code"] == code:
                return f
        raise AssertionError(f"no {code} at {program}:{line} in {self.report['findings']}")


class ConfirmJob:
    """One `python -m retracelint.confirm` started in the background (jobs run side by side)."""

    def __init__(
        self,
        programs: list[str],
        *,
        extra: tuple[str, ...] | list[str] = (),
        command: list[str] | None = None,
        timeout: float = HANG_S,
        env: dict[str, str] | None = None,
        paths: list[str] | None = None,
    ) -> None:
        """`paths`: run the static analysis on them instead of the findings in the programs.
        `timeout`: a hang catcher only; a loaded machine makes an honest run take what it takes."""
        self.tmp = Path(tempfile.mkdtemp(prefix="rtl-confirm-test-"))
        findings: list[Finding] = []
        self.expectations: list[Expectation] = []
        for name in programs:
            f, e = program_findings(name)
            findings += f
            self.expectations += e
        if paths is None:
            source = ["--plan", str(write_plan(findings, self.tmp / "plan.json"))]
        else:
            source = list(paths)
        self.report_path = self.tmp / "report.json"
        if command is None:
            paths = [str(PROGRAMS / p) for p in programs]
            command = [sys.executable, str(PROGRAMS / "run_many.py"), *paths]
        args = [
            sys.executable,
            "-m",
            "retracelint.confirm",
            *source,
            "--backend",
            "cpu",
            "--format",
            "json",
            "-o",
            str(self.report_path),
            *extra,
            "--",
            *command,
        ]
        full_env = child_environment(env)
        self.timeout = timeout
        self.proc = subprocess.Popen(
            args,
            cwd=ROOT,
            env=full_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._result: ConfirmRun | None = None

    def result(self) -> ConfirmRun:
        if self._result is None:
            try:
                out, err = self.proc.communicate(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                out, err = self.proc.communicate()
                err += f"\n[the test gave up after {self.timeout} s]"
            report = json.loads(self.report_path.read_text()) if self.report_path.exists() else {}
            self._result = ConfirmRun(self.proc.returncode, out, err, report)
        return self._result
