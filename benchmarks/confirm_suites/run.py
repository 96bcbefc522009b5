"""Run other projects' test suites plain, under `retracelint confirm` and under the pytest plugin, and
compare the outcome and the output of every test: confirm must change nothing a test can see.

    python benchmarks/confirm_suites/run.py [--work DIR] [--only NAME ...] [--ways WAY ...]
        [--checkout jax=PATH] [--checkout equinox=PATH] [--skip-install]

It makes a virtual environment in DIR (default: /tmp/retracelint-suites) with this checkout and the
pinned versions below, takes the chosen test files from each project's sdist on PyPI, or from a git
checkout of the project at the pinned tag (jax's and equinox's tests are in neither their wheels
nor their sdists: pass `--checkout NAME=PATH` of a clone; suites without one are skipped), copies
them out (so that the tests import the installed package, not the sources) and runs each file
five ways:

  plain        python -m pytest FILE
  confirm      retracelint confirm FILE -- python -m pytest FILE            (flagged sites)
  confirm-all  retracelint confirm --guard all FILE -- python -m pytest FILE
  plugin       python -m pytest --retracelint FILE
  plugin-n2    python -m pytest --retracelint -n 2 FILE
  plain-n2     python -m pytest -n 2 FILE                                   (with plugin-n2)

Outcomes and outputs come from pytest's JUnit XML (test id -> passed / failed / skipped, and the
test's captured stdout, stderr, log and failure message, with addresses, ids and timings masked).
It prints a Markdown table (identical outcomes? identical outputs? wall time and overhead per way,
what confirm reported) and writes it, with the per-test differences, to DIR/results.md. Needs the
network (PyPI) and minutes on two cores; it is not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import venv
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PINS = ["optax==0.2.8", "chex==0.1.92", "equinox==0.13.8", "flax==0.12.8"]
TOOLS = ["pytest>=8", "pytest-xdist>=3", "absl-py", "cloudpickle"]


@dataclass(frozen=True)
class Suite:
    name: str
    # The pinned requirement whose sdist holds the test file ("optax==0.2.8"), or a project and
    # the tag of its git checkout ("jax@jax-v0.10.2").
    source: str
    member: str  # the test file, inside the sdist's top folder or the checkout
    select: str = ""  # pytest -k expression, to keep a run within minutes
    # Files of the tests package the test file imports (equinox's `from .helpers import ...`): the
    # test file then keeps its folder, beside them.
    package: tuple[str, ...] = ()


SUITES = [
    Suite("chex-asserts", "chex==0.1.92", "chex/_src/asserts_test.py",
          "MaxTraces or Scalar or Shape or Rank or Type"),
    Suite("chex-variants", "chex==0.1.92", "chex/_src/variants_test.py"),
    Suite("optax-clipping", "optax==0.2.8", "optax/transforms/_clipping_test.py"),
    Suite("optax-update", "optax==0.2.8", "optax/_src/update_test.py"),
    Suite("optax-schedule-free", "optax==0.2.8", "optax/contrib/_schedule_free_test.py"),
    Suite("flax-nnx-integration", "flax==0.12.8", "tests/nnx/integration_test.py"),
    Suite("flax-nnx-optimizer", "flax==0.12.8", "tests/nnx/optimizer_test.py",
          "split_merge or update or metrics"),
    Suite("flax-nnx-transforms", "flax==0.12.8", "tests/nnx/transforms_test.py",
          "TestJIT or TestTreeJIT or TestRemat or TestCond or TestSwitch"),
    # jax's re-trace, trace-cache, cache-miss explanation and leak-checker tests.
    Suite("jax-api", "jax@jax-v0.10.2", "tests/api_test.py",
          "leak_checker or retracing or forces_retrace or cache_miss_explanations or no_tracing "
          "or cache_clear or clear_cache or global_cache or escaped_tracer"),
    Suite("equinox-jit", "equinox@v0.13.8", "tests/test_jit.py",
          package=("tests/__init__.py", "tests/conftest.py", "tests/helpers.py")),
]  # fmt: skip
WAYS = ["plain", "confirm", "confirm-all", "plugin", "plugin-n2", "plain-n2"]
# The run each way is compared with: under xdist, what a test captures depends on how the tests
# were shared out (pytest's progress marks land in whichever test's output is being captured), so
# the plugin under -n 2 is compared with a plain run under -n 2.
BASELINE = {"plugin-n2": "plain-n2"}


@dataclass
class Outcome:
    tests: dict[str, str] = field(default_factory=dict)
    outputs: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    returncode: int = 0
    report: dict = field(default_factory=dict)
    tail: str = ""


def _python(env_dir: Path) -> Path:
    return env_dir / "bin" / "python"


def install(work: Path) -> Path:
    env_dir = work / "venv"
    if not _python(env_dir).exists():
        venv.EnvBuilder(with_pip=True).create(env_dir)
    pip = [str(_python(env_dir)), "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "-e", f"{ROOT}[confirm]", *PINS, *TOOLS], check=True)
    return env_dir


def _from_sdist(env_dir: Path, work: Path, requirement: str, members: list[str]) -> list[bytes]:
    name, version = requirement.split("==")
    sdists = work / "sdists"
    sdists.mkdir(parents=True, exist_ok=True)
    archive = sdists / f"{name}-{version}.tar.gz"
    if not archive.exists():
        pip = [str(_python(env_dir)), "-m", "pip", "download", "-q", "--no-deps"]
        subprocess.run([*pip, "--no-binary", ":all:", "-d", str(sdists), requirement], check=True)
    with tarfile.open(archive) as tar:
        return [
            tar.extractfile(tar.getmember(f"{name}-{version}/{m}")).read()  # type: ignore[union-attr]
            for m in members
        ]


def _from_git(checkout: Path, tag: str, members: list[str]) -> list[bytes]:
    git = ["git", "-C", str(checkout), "show"]
    return [
        subprocess.run([*git, f"{tag}:{m}"], check=True, capture_output=True).stdout
        for m in members
    ]


def fetch_tests(env_dir: Path, work: Path, checkouts: dict[str, Path]) -> dict[str, Path]:
    """Each suite's test file, copied into work/tests/SUITE/ (its tests package beside it)."""
    out: dict[str, Path] = {}
    for suite in SUITES:
        members = [suite.member, *suite.package]
        if "@" in suite.source:
            project, tag = suite.source.split("@")
            if project not in checkouts:
                continue
            data = _from_git(checkouts[project], tag, members)
        else:
            data = _from_sdist(env_dir, work, suite.source, members)
        folder = work / "tests" / suite.name
        shutil.rmtree(folder, ignore_errors=True)
        for member, text in zip(members, data, strict=True):
            # A lone file is renamed so that no folder of the copy shadows the installed package.
            target = folder / (
                member if suite.package else f"{suite.name.replace('-', '_')}_test.py"
            )
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text)
        out[suite.name] = folder / (suite.member if suite.package else target.name)
    return out


# What differs from run to run with or without confirm: object addresses, ids, timings, temp paths.
_VARYING = re.compile(r"0x[0-9a-f]+|id=\d+|\d+\.\d+ ?(?:s|sec|ms)\b|/tmp/[\w./-]+|pid \d+")


def _output(case: ET.Element) -> str:
    parts = [
        (child.get("message") or "") + (child.text or "")
        for child in case
        if child.tag in ("failure", "error", "skipped", "system-out", "system-err")
    ]
    return _VARYING.sub("<n>", "\n".join(parts))


def _outcomes(xml: Path) -> tuple[dict[str, str], dict[str, str]]:
    """Each test's outcome and its output."""
    if not xml.exists():
        return {}, {}
    outcomes, outputs = {}, {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        test = f"{case.get('classname')}::{case.get('name')}"
        kinds = {child.tag for child in case}
        if kinds & {"failure", "error"}:
            outcomes[test] = "failed"
        elif "skipped" in kinds:
            outcomes[test] = "skipped"
        else:
            outcomes[test] = "passed"
        outputs[test] = _output(case)
    return outcomes, outputs


def run_way(env_dir: Path, suite: Suite, path: Path, way: str, work: Path) -> Outcome:
    python = str(_python(env_dir))
    xml = work / "out" / f"{suite.name}.{way}.xml"
    report = work / "out" / f"{suite.name}.{way}.json"
    xml.parent.mkdir(exist_ok=True)
    for stale in (xml, report):
        stale.unlink(missing_ok=True)
    pytest = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={xml}"]
    pytest += ["-o", "junit_logging=all", "-o", "junit_log_passing_tests=true"]
    rel = path.relative_to(work / "tests" / suite.name)
    pytest += [str(rel)] + (["-k", suite.select] if suite.select else [])
    if way.startswith("plain"):
        command = pytest + (["-n", "2"] if way == "plain-n2" else [])
    elif way.startswith("confirm"):
        guard = ["--guard", "all"] if way == "confirm-all" else []
        command = [python, "-m", "retracelint", "confirm", "--backend", "cpu", *guard]
        command += ["--format", "json", "-o", str(report), str(rel), "--", *pytest]
    else:
        command = [*pytest, "--retracelint", f"--retracelint-report={report}"]
        command += ["-n", "2"] if way == "plugin-n2" else []
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    start = time.monotonic()
    proc = subprocess.run(
        command,
        cwd=work / "tests" / suite.name,
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    tests, outputs = _outcomes(xml)
    outcome = Outcome(
        tests=tests,
        outputs=outputs,
        seconds=time.monotonic() - start,
        returncode=proc.returncode,
        tail=(proc.stdout + proc.stderr)[-1500:],
    )
    if report.exists():
        outcome.report = json.loads(report.read_text(encoding="utf-8"))
    return outcome


def _confirm_summary(outcome: Outcome) -> str:
    report = outcome.report
    if not report:
        return "-"
    summary = report.get("summary", {})
    found = len(report.get("findings", []))
    if found:
        bits = [f"{found} findings: {summary.get('confirmed', 0)} confirmed"]
        bits.append(f"{summary.get('not re-traced', 0)} not re-traced")
        bits.append(f"{summary.get('inconclusive', 0)} inconclusive")
        bits.append(f"{summary.get('not reached', 0)} not reached")
    else:
        bits = []
    bits.append(f"{summary.get('unpredicted', 0)} RTL901")
    rebuilt = len(report.get("rebuilt_per_test", []))
    if rebuilt:
        bits.append(f"{rebuilt} rebuilt per test")
    return ", ".join(bits)


def _differences(name: str, way: str, plain: Outcome, other: Outcome) -> tuple[list[str], int, int]:
    """What differs from the plain run, per test, and how many outcomes and outputs changed. Lines
    that only come in another order (threads log as they run, with or without us) are listed, not
    counted."""
    diffs, outcomes, outputs = [], 0, 0
    for test in sorted(set(plain.tests) | set(other.tests)):
        before, after = plain.tests.get(test), other.tests.get(test)
        if before != after:
            outcomes += 1
            diffs.append(f"{name} [{way}] {test}: {before} -> {after}")
            continue
        old, new = plain.outputs.get(test) or "", other.outputs.get(test) or ""
        if old == new:
            continue
        reordered = sorted(old.splitlines()) == sorted(new.splitlines())
        outputs += not reordered
        what = "the same lines in another order" if reordered else "output differs"
        diffs.append(f"{name} [{way}] {test}: {what}")
    return diffs, outcomes, outputs


def table(results: dict[str, dict[str, Outcome]], ways: list[str]) -> tuple[str, list[str]]:
    others = [w for w in ways if w != "plain" and w not in BASELINE.values()]
    head = "| suite | tests (pass/fail/skip plain) | same outcomes | same outputs | "
    head += " | ".join(f"{w} s" for w in ways)
    head += (
        "".join(f" | {w}" for w in others if w in ("confirm", "confirm-all", "plugin", "plugin-n2"))
        + " |"
    )
    rows = [head, "|" + "---|" * (head.count("|") - 1)]
    diffs: list[str] = []
    for name, runs in results.items():
        plain = runs["plain"]
        counts = [
            sum(1 for v in plain.tests.values() if v == k) for k in ("passed", "failed", "skipped")
        ]
        outcome_changes = output_changes = 0
        for way in others:
            base_run = runs[BASELINE.get(way, "plain")]
            found, outcomes, outputs = _differences(name, way, base_run, runs[way])
            diffs += found
            outcome_changes += outcomes
            output_changes += outputs
        base = plain.seconds or 1.0
        times = " | ".join(
            f"{runs[w].seconds:.0f}" + ("" if w == "plain" else f" ({runs[w].seconds / base:.2f}x)")
            for w in ways
        )
        summaries = "".join(
            f" | {_confirm_summary(runs[w])}"
            for w in others
            if w in ("confirm", "confirm-all", "plugin", "plugin-n2")
        )
        same = "yes" if plain.tests and not outcome_changes else f"NO ({outcome_changes})"
        rows.append(
            f"| {name} | {len(plain.tests)} ({'/'.join(map(str, counts))}) | {same} | "
            f"{'yes' if not output_changes else f'NO ({output_changes})'} | {times}{summaries} |"
        )
    return "\n".join(rows), diffs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/retracelint-suites"))
    parser.add_argument("--only", nargs="*", default=None, help="suite names to run")
    parser.add_argument("--ways", nargs="*", default=WAYS, choices=WAYS, help="plain is always run")
    parser.add_argument(
        "--checkout", action="append", default=[], metavar="PROJECT=PATH",
        help="a git clone holding the pinned tag (jax, equinox)",
    )  # fmt: skip
    parser.add_argument("--skip-install", action="store_true")
    args = parser.parse_args(argv)
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    checkouts = {k: Path(v) for k, _, v in (c.partition("=") for c in args.checkout)}
    ways = ["plain", *[w for w in args.ways if w != "plain"]]
    ways += [BASELINE[w] for w in ways if w in BASELINE and BASELINE[w] not in ways]
    env_dir = work / "venv" if args.skip_install else install(work)
    files = fetch_tests(env_dir, work, checkouts)
    results: dict[str, dict[str, Outcome]] = {}
    skipped = []
    for suite in SUITES:
        if args.only and suite.name not in args.only:
            continue
        if suite.name not in files:
            skipped.append(f"- {suite.name}: no --checkout for {suite.source}")
            continue
        results[suite.name] = {}
        for way in ways:
            outcome = run_way(env_dir, suite, files[suite.name], way, work)
            results[suite.name][way] = outcome
            print(f"{suite.name:<22} {way:<12} {len(outcome.tests):>4} tests "
                  f"{outcome.seconds:>6.1f} s  exit {outcome.returncode}", flush=True)  # fmt: skip
            if not outcome.tests:
                print(outcome.tail, file=sys.stderr)
    text, diffs = table(results, ways)
    body = text + "\n" + ("\nNot run:\n" + "\n".join(skipped) + "\n" if skipped else "")
    body += "\nDifferences:\n" + ("\n".join(f"- {d}" for d in diffs) if diffs else "none") + "\n"
    (work / "results.md").write_text(body, encoding="utf-8")
    print(body)
    shutil.rmtree(work / "out" / "__pycache__", ignore_errors=True)
    return 1 if diffs else 0


if __name__ == "__main__":
    raise SystemExit(main())
