"""Helpers for the confirm tests: hand-written findings read from the programs' comments, and a
runner for ``python -m retracelint.confirm``.

A program marks its jit sites and the findings a static pass would report:

* ``# site: NAME`` on the ``def`` line of a jitted function, or on the ``jax.jit(...)`` line;
* ``# finding: CODE site=NAME [param=P] expect=STATUS`` on the line to fix. ``STATUS`` is what
  ``retracelint confirm`` must say (``confirmed``, ``not re-traced``, ``inconclusive``,
  ``not reached``; the words after ``expect=`` up to the end of the comment).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

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


@dataclass
class ConfirmRun:
    returncode: int
    stdout: str
    stderr: str
    report: dict

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
        extra: list[str] = (),
        command: list[str] | None = None,
        timeout: float = 120,
        env: dict[str, str] | None = None,
    ) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="rtl-confirm-test-"))
        findings: list[Finding] = []
        self.expectations: list[Expectation] = []
        for name in programs:
            f, e = program_findings(name)
            findings += f
            self.expectations += e
        plan = write_plan(findings, self.tmp / "plan.json")
        self.report_path = self.tmp / "report.json"
        if command is None:
            paths = [str(PROGRAMS / p) for p in programs]
            command = [sys.executable, str(PROGRAMS / "run_many.py"), *paths]
        args = [
            sys.executable,
            "-m",
            "retracelint.confirm",
            "--plan",
            str(plan),
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
        full_env = dict(os.environ if env is None else env)
        full_env["PYTHONPATH"] = str(ROOT) + os.pathsep + full_env.get("PYTHONPATH", "")
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
            out, err = self.proc.communicate(timeout=self.timeout)
            report = json.loads(self.report_path.read_text()) if self.report_path.exists() else {}
            self._result = ConfirmRun(self.proc.returncode, out, err, report)
        return self._result
