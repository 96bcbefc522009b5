"""Run other projects' test suites plain, under `retracelint confirm` and under the pytest plugin, and
compare the outcome of every test: confirm must change nothing a test can see.

    python benchmarks/confirm_suites/run.py [--work DIR] [--only NAME ...] [--skip-install]

It makes a virtual environment in DIR (default: /tmp/retracelint-suites) with this checkout and the
pinned versions below, takes the chosen test files from each project's sdist on PyPI (the files
are copied out, so that the tests import the installed package, not the sdist's sources), and
runs each file five ways:

  plain        python -m pytest FILE
  confirm      retracelint confirm FILE -- python -m pytest FILE            (flagged sites)
  confirm-all  retracelint confirm --guard all FILE -- python -m pytest FILE
  plugin       python -m pytest --retracelint FILE
  plugin-n2    python -m pytest --retracelint -n 2 FILE

Outcomes come from pytest's JUnit XML (test id -> passed / failed / skipped). It prints a Markdown
table (identical outcomes? wall time and overhead per way, what confirm reported) and writes it,
with the per-test differences, to DIR/results.md. Needs the network (PyPI) and a few minutes on two
cores; it is not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
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
    sdist: str  # the pinned requirement whose sdist holds the test file
    member: str  # the test file inside the sdist, after its top folder
    select: str = ""  # pytest -k expression, to keep a run within minutes


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
]  # fmt: skip
# jax's own re-trace tests (tests/api_test.py and friends at jax-v0.10.2) are in neither jax's
# wheel nor its sdist on PyPI, and equinox ships no tests in either: neither can be run from here.
NOT_ON_PYPI = {
    "jax 0.10.2": "tests/ is in neither the wheel nor the sdist",
    "equinox 0.13.8": "the sdist and the wheel hold no tests",
}
WAYS = ["plain", "confirm", "confirm-all", "plugin", "plugin-n2"]


@dataclass
class Outcome:
    tests: dict[str, str] = field(default_factory=dict)
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


def fetch_tests(env_dir: Path, work: Path) -> dict[str, Path]:
    """Each suite's test file, copied out of its project's sdist into work/tests/."""
    sdists = work / "sdists"
    sdists.mkdir(parents=True, exist_ok=True)
    out: dict[str, Path] = {}
    tests = work / "tests"
    tests.mkdir(exist_ok=True)
    for suite in SUITES:
        name, version = suite.sdist.split("==")
        archive = sdists / f"{name}-{version}.tar.gz"
        if not archive.exists():
            pip = [str(_python(env_dir)), "-m", "pip", "download", "-q", "--no-deps"]
            subprocess.run(
                [*pip, "--no-binary", ":all:", "-d", str(sdists), suite.sdist], check=True
            )
        with tarfile.open(archive) as tar:
            member = tar.getmember(f"{name}-{version}/{suite.member}")
            data = tar.extractfile(member).read()  # type: ignore[union-attr]
        target = tests / f"{suite.name.replace('-', '_')}_test.py"
        target.write_bytes(data)
        out[suite.name] = target
    return out


def _outcomes(xml: Path) -> dict[str, str]:
    if not xml.exists():
        return {}
    out = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        test = f"{case.get('classname')}::{case.get('name')}"
        kinds = {child.tag for child in case}
        if kinds & {"failure", "error"}:
            out[test] = "failed"
        elif "skipped" in kinds:
            out[test] = "skipped"
        else:
            out[test] = "passed"
    return out


def run_way(env_dir: Path, suite: Suite, path: Path, way: str, work: Path) -> Outcome:
    python = str(_python(env_dir))
    xml = work / "out" / f"{suite.name}.{way}.xml"
    report = work / "out" / f"{suite.name}.{way}.json"
    xml.parent.mkdir(exist_ok=True)
    for stale in (xml, report):
        stale.unlink(missing_ok=True)
    pytest = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={xml}"]
    pytest += [str(path.name)] + (["-k", suite.select] if suite.select else [])
    if way == "plain":
        command = pytest
    elif way.startswith("confirm"):
        guard = ["--guard", "all"] if way == "confirm-all" else []
        command = [python, "-m", "retracelint", "confirm", "--backend", "cpu", *guard]
        command += ["--format", "json", "-o", str(report), path.name, "--", *pytest]
    else:
        command = [*pytest, "--retracelint", f"--retracelint-report={report}"]
        command += ["-n", "2"] if way == "plugin-n2" else []
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    start = time.monotonic()
    proc = subprocess.run(
        command, cwd=path.parent, env=env, capture_output=True, text=True, timeout=1800
    )
    outcome = Outcome(
        tests=_outcomes(xml),
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


def table(results: dict[str, dict[str, Outcome]]) -> tuple[str, list[str]]:
    head = "| suite | tests (pass/fail/skip plain) | identical in every way | "
    head += " | ".join(f"{w} s" for w in WAYS) + " | confirm | confirm --guard all | plugin |"
    rows = [head, "|" + "---|" * (len(WAYS) + 6)]
    diffs: list[str] = []
    for name, ways in results.items():
        plain = ways["plain"].tests
        counts = [sum(1 for v in plain.values() if v == k) for k in ("passed", "failed", "skipped")]
        same = True
        for way in WAYS[1:]:
            other = ways[way].tests
            for test in sorted(set(plain) | set(other)):
                if plain.get(test) != other.get(test):
                    same = False
                    diffs.append(f"{name} [{way}] {test}: {plain.get(test)} -> {other.get(test)}")
        base = ways["plain"].seconds or 1.0
        times = " | ".join(
            f"{ways[w].seconds:.0f}" + ("" if w == "plain" else f" ({ways[w].seconds / base:.2f}x)")
            for w in WAYS
        )
        rows.append(
            f"| {name} | {len(plain)} ({'/'.join(map(str, counts))}) | "
            f"{'yes' if same and plain else 'NO'} | {times} | {_confirm_summary(ways['confirm'])} | "
            f"{_confirm_summary(ways['confirm-all'])} | {_confirm_summary(ways['plugin'])} |"
        )
    return "\n".join(rows), diffs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/retracelint-suites"))
    parser.add_argument("--only", nargs="*", default=None, help="suite names to run")
    parser.add_argument("--skip-install", action="store_true")
    args = parser.parse_args(argv)
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    env_dir = work / "venv" if args.skip_install else install(work)
    files = fetch_tests(env_dir, work)
    results: dict[str, dict[str, Outcome]] = {}
    for suite in SUITES:
        if args.only and suite.name not in args.only:
            continue
        results[suite.name] = {}
        for way in WAYS:
            outcome = run_way(env_dir, suite, files[suite.name], way, work)
            results[suite.name][way] = outcome
            print(f"{suite.name:<22} {way:<12} {len(outcome.tests):>4} tests "
                  f"{outcome.seconds:>6.1f} s  exit {outcome.returncode}", flush=True)  # fmt: skip
            if not outcome.tests:
                print(outcome.tail, file=sys.stderr)
    text, diffs = table(results)
    missing = "\n".join(f"- {what}: {why}" for what, why in NOT_ON_PYPI.items())
    body = f"{text}\n\nNot runnable from PyPI:\n{missing}\n"
    body += "\nDifferences:\n" + ("\n".join(f"- {d}" for d in diffs) if diffs else "none") + "\n"
    (work / "results.md").write_text(body, encoding="utf-8")
    print(body)
    shutil.rmtree(work / "out" / "__pycache__", ignore_errors=True)
    return 1 if diffs else 0


if __name__ == "__main__":
    raise SystemExit(main())
