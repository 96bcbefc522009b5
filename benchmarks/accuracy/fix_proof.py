"""Are the fixes right? JAX says (issue 41): for every positive program that retracelint finds, apply
``--fix --unsafe-fixes`` to a copy and run both under JAX's cache-miss log.

    python benchmarks/accuracy/fix_proof.py prepare DIR   # here: copies, retracelint --fix (no JAX)
    python benchmarks/accuracy/fix_proof.py prove DIR     # where JAX runs: both versions, compared
    python benchmarks/accuracy/fix_proof.py prepare DIR RTL101 RTL103  # only the positives found by these

``prepare`` with codes takes only the positives found by one of them (a cheaper look at some rules'
fixes); ``prove`` then prints their table and leaves FIXES.md, which is of every found positive, alone.

``prepare`` writes ``DIR/<set>/<id>/{before,after}/`` and ``DIR/prepared.json`` (which files changed,
which fixes were made, which were refused and why). ``prove`` runs ``main.py`` of both copies through
tests/retrace_counter.py and writes ``DIR/proof.json`` and a table on standard output. A program is

- ``traces once``: the fixed copy runs, every jitted function traces once (or once per jit made of
  it: JAX sees none of its traces as a re-trace), and it prints what the original printed (numbers
  within a relative 1e-4; a number the original prints differently on a second run, a wall-clock
  time, is not compared);
- ``still re-traces``: fixed and runs the same, but JAX still re-traces (the fix was not enough);
- ``runs unjitted``: fixed, runs the same and no re-trace, but a padding front's guard ran the body
  unjitted (``f.__wrapped__``) at some call: its jitted body traced fewer times than the body ran, or
  not at all, so "traces once" would count calls that JAX never saw;
- ``changed output`` / ``broken``: the fix changed what it prints / made it fail: must be 0;
- ``no fix``: retracelint left it unchanged (no fix for the rule, or one refused with a reason).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SETS = {"tuned": HERE / "programs", "heldout": HERE / "heldout"}
RESULTS = {"tuned": HERE / "RESULTS.md", "heldout": HERE / "heldout" / "RESULTS.md"}
COUNTER = ROOT / "tests" / "retrace_counter.py"
VERDICTS = ("traces once", "still re-traces", "runs unjitted", "changed output", "broken", "no fix")
_SPACES = re.compile(r"[ \t]+")
_NUMBER = re.compile(r"-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf")


def found_positives(results: Path) -> dict[str, set[str]]:
    """The positives the last score found (``RESULTS.md``, written by ``run.py score``), each with the
    codes reported (a found positive has no other finding)."""
    rows = re.findall(
        r"^\| `([^`]+)` \| positive \| found \| [^|]* \| ([^|]*) \|",
        results.read_text(),
        re.MULTILINE,
    )
    return {case_id: set(re.findall(r"RTL\d+", reported)) for case_id, reported in rows}


def prepare(out: Path, *codes: str) -> None:
    """Copy each found positive twice and fix one copy; a program already prepared (its row written)
    is kept, so that an interrupted run goes on where it stopped. ``codes``: only the positives found
    by one of them."""
    sys.path.insert(0, str(HERE))
    import run

    from retracelint.fixes import FIXABLE

    jobs = [
        (name, root / case_id, found)
        for name, root in SETS.items()
        for case_id, found in found_positives(RESULTS[name]).items()
        if not codes or found & set(codes)
    ]

    def one(job: tuple[str, Path, set[str]]) -> None:
        name, folder, found = job
        where = out / name / folder.name
        if (where / "row.json").exists():
            return
        if not found & FIXABLE:  # no rule of its findings has a fix: nothing to run
            where.mkdir(parents=True, exist_ok=True)
            row = {"set": name, "id": folder.name, "changed": [], "messages": []}
            (where / "row.json").write_text(json.dumps(row), encoding="utf-8")
            return
        shutil.rmtree(where, ignore_errors=True)
        for copy in ("before", "after"):
            shutil.copytree(folder, where / copy, ignore=run.LEFT_BEHIND)
        command = [*run.default_retracelint(), "check", ".", "--isolated", "--no-cache"]
        fix = subprocess.run(
            [*command, "--fix", "--unsafe-fixes", "--output-format", "json", "-j", "1"],
            cwd=where / "after",
            capture_output=True,
            text=True,
            check=False,
        )
        changed = sorted(
            p.relative_to(where / "after").as_posix()
            for p in (where / "after").rglob("*.py")
            if p.read_bytes() != (where / "before" / p.relative_to(where / "after")).read_bytes()
        )
        row = {
            "set": name,
            "id": folder.name,
            "changed": changed,
            "messages": [line for line in fix.stderr.splitlines() if line.strip()],
        }
        (where / "row.json").write_text(json.dumps(row), encoding="utf-8")

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(one, jobs))
    rows = [json.loads((out / n / f.name / "row.json").read_text()) for n, f, _ in jobs]
    (out / "prepared.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")
    fixed = sum(1 for r in rows if r["changed"])
    print(f"{len(rows)} positives found, {fixed} changed by --fix --unsafe-fixes")


def _guarded(folder: Path) -> frozenset[str]:
    """The jitted functions whose unjitted body a padding front may call instead (``f.__wrapped__``)
    in the program's files."""
    names: set[str] = set()
    for path in folder.rglob("*.py"):
        try:
            tree = ast.parse(path.read_bytes())
        except SyntaxError:
            continue
        names.update(
            node.value.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and node.attr == "__wrapped__"
            and isinstance(node.value, ast.Name)
        )
    return frozenset(names)


def _run(folder: Path) -> tuple[str, dict]:
    report = folder / "traces.json"
    guarded = _guarded(folder)
    calls = ["--calls", ",".join(sorted(guarded))] if guarded else []
    proc = subprocess.run(
        [sys.executable, str(COUNTER), *calls, str(report), "main.py"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        env={"JAX_PLATFORMS": "cpu", "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"},
        timeout=300,
    )
    data = json.loads(report.read_text()) if report.exists() else {"exception": proc.stderr[-500:]}
    if proc.returncode != 0 and not data.get("exception"):
        data["exception"] = proc.stderr[-500:]
    return proc.stdout, data


def _differing(a: str, b: str) -> set[int] | None:
    """The numbers (by their place) that differ beyond tolerance between two outputs; None when the
    text around them differs. Runs of spaces count as one: numpy aligns an array's columns to its
    widest number, so a last digit that rounds otherwise moves the spaces, not the results."""
    if _SPACES.sub(" ", _NUMBER.sub("#", a)) != _SPACES.sub(" ", _NUMBER.sub("#", b)):
        return None
    xs, ys = _NUMBER.findall(a), _NUMBER.findall(b)
    return {
        i
        for i, (x, y) in enumerate(zip(xs, ys, strict=True))
        if not (x == y or math.isclose(float(x), float(y), rel_tol=1e-4, abs_tol=1e-6))
    }


def _same_output(a: str, b: str, unsteady: frozenset[int] = frozenset()) -> bool:
    """Whether ``b`` prints what ``a`` does, but for the numbers at ``unsteady`` places (those that
    differ between two runs of the original: wall-clock times)."""
    differing = _differing(a, b)
    return differing is not None and differing <= unsteady


def _own_traces(folder: Path, report: dict, field: str = "traces") -> Counter[str]:
    """Traces (or re-traces: ``field``) per function name of the program's own files, as ``run.py``'s
    ``_traces_in`` counts them: a function jax cannot place (``<unknown>``, no file: its own helpers,
    traced inside the program's jits) is none of the program's, and the counter puts every such one
    under one name."""
    prefix = os.path.join(str(folder.resolve()), "")
    counts: Counter[str] = Counter()
    for entry in report.get("traces", []):
        if entry["file"].startswith(prefix):
            counts[entry["name"]] += entry[field]
    return counts


def _retraced(folder: Path, report: dict) -> bool:
    """Whether a function traced more than once, JAX calling a trace of it a re-trace. Traces per
    function, as run.py verify counts them (the counter also calls a nested function's first trace
    inside a jit a re-trace), unless JAX saw each as a function it had never seen: the jits of one
    function and of its gradient, both made once, each trace it once."""
    retraces = _own_traces(folder, report, "retraces")
    return any(n > 1 and retraces[name] for name, n in _own_traces(folder, report).items())


def _unjitted(folder: Path, report: dict) -> bool:
    """Did a guarded function's body run more often than JAX traced it (its front fell back)?"""
    traced = _own_traces(folder, report)
    return any(entry["calls"] > traced[entry["name"]] for entry in report.get("calls", []))


def _digest(folder: Path) -> str:
    sha = hashlib.sha256()
    for path in sorted(folder.rglob("*.py")):
        sha.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return sha.hexdigest()[:16]


def _prove(row: dict, where: Path) -> dict:
    """One fixed program against its original, under JAX's cache-miss log."""
    before, _ = _run(where / "before")
    after, after_traces = _run(where / "after")
    unsteady: frozenset[int] = frozenset()
    if not _same_output(before, after):
        # the original run again: numbers it does not print the same twice are not its results
        unsteady = frozenset(_differing(before, _run(where / "before")[0]) or ())
    if after_traces.get("exception"):
        verdict = "broken"
    elif not _same_output(before, after, unsteady):
        verdict = "changed output"
    elif _retraced(where / "after", after_traces):
        verdict = "still re-traces"
    elif _unjitted(where / "after", after_traces):
        verdict = "runs unjitted"
    else:
        verdict = "traces once"
    return {**row, "verdict": verdict, "error": after_traces.get("exception")}


def prove(out: Path) -> None:
    rows = json.loads((out / "prepared.json").read_text())

    def one(row: dict) -> dict:
        if not row["changed"]:
            return {**row, "verdict": "no fix"}
        where = out / row["set"] / row["id"]
        # Kept by what was run: a later prepare that fixes the program the same way reuses it.
        # (named by the rule above too: a verdict of an earlier rule is not reused)
        done = out / "verdicts" / f"{row['set']}-{row['id']}-{_digest(where / 'after')}-calls.json"
        if done.exists():
            return {**json.loads(done.read_text()), "messages": row["messages"]}
        proved = _prove(row, where)
        done.parent.mkdir(exist_ok=True)
        done.write_text(json.dumps(proved), encoding="utf-8")
        return proved

    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        proved = list(pool.map(one, rows))
    (out / "proof.json").write_text(json.dumps(proved, indent=1), encoding="utf-8")
    if len(proved) == sum(len(found_positives(r)) for r in RESULTS.values()):
        (HERE / "FIXES.md").write_text(report(proved), encoding="utf-8")
    print(table(proved))


# The names in a refusal's reason, so that reasons of one kind count together.
_NAMES = (
    (
        re.compile(r"^\S+ must stay static: line \d+ (passes it to|uses it in|gives) (\S+).*"),
        r"must stay static: \1 \2",
    ),
    (re.compile(r"^\S+ must stay static: line \d+ "), "must stay static: "),
    (re.compile(r"^\S+ lists no static parameters"), "lists no static parameters"),
    (re.compile(r"^it closes over .*?, which"), "it closes over a value which"),
    (re.compile(r"made by \S+, which"), "made by a function, which"),
    (re.compile(r"^(making|building) it calls \S+,"), r"\1 it calls a function,"),
    (re.compile(r"^\S+ is changed after"), "the object is changed after"),
    (re.compile(r"^no single number passed to .*"), "no single number passed at the line named"),
)


def _reason(message: str) -> str:
    code, reason = re.sub(r"^retracelint: \S+: ", "", message).split(" not fixed: ", 1)
    for pattern, replacement in _NAMES:
        reason = pattern.sub(replacement, reason)
    return f"{code}: {reason}"


def report(rows: list[dict]) -> str:
    """FIXES.md: the totals, the same by rule (a program counts under each code it was found by), the
    programs fixed, and why the others were not."""
    codes = {(n, k): v for n in SETS for k, v in found_positives(RESULTS[n]).items()}
    by_rule: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        for code in codes[(row["set"], row["id"])]:
            by_rule[code]["found"] += 1
            by_rule[code][row["verdict"]] += 1
    lines = [
        "# Fixes proved by JAX",
        "",
        "Generated by `python benchmarks/accuracy/fix_proof.py prepare DIR && ... prove DIR`; do not edit.",
        "Each positive the accuracy benchmark finds (RESULTS.md, heldout/RESULTS.md) is copied, fixed with",
        "`retracelint check --fix --unsafe-fixes`, and both copies run under JAX's cache-miss log.",
        "",
        table(rows),
        "",
        *_header("rule"),
    ]
    for code in sorted(by_rule):
        t = by_rule[code]
        cells = [t[v] for v in VERDICTS]
        lines.append(f"| {code} | {t['found']} | " + " | ".join(map(str, cells)) + " |")
    lines += ["", "## Programs fixed", "", "| program | verdict | files changed |", "|---|---|---|"]
    for row in sorted(rows, key=lambda r: (r["verdict"], r["set"], r["id"])):
        if row["verdict"] != "no fix":
            lines.append(
                f"| {row['set']}/`{row['id']}` | {row['verdict']} | {', '.join(row['changed'])} |"
            )
    reasons = Counter(_reason(m) for row in rows for m in row["messages"] if " not fixed: " in m)
    lines += ["", "## Why the others were not fixed (reasons given, most frequent first)", ""]
    # Ties in the order of their text: the programs are proved in parallel, so first-seen order varies.
    ranked = sorted(reasons.items(), key=lambda item: (-item[1], item[0]))
    lines += [f"- {count}: {reason}" for reason, count in ranked]
    return "\n".join(lines) + "\n"


def _header(first: str) -> list[str]:
    return [
        f"| {first} | found | " + " | ".join(VERDICTS) + " |",
        "|---|" + "---:|" * (len(VERDICTS) + 1),
    ]


def table(rows: list[dict]) -> str:
    lines = _header("set")
    for name in (*SETS, "all"):
        mine = [r for r in rows if name in ("all", r["set"])]
        counts = [sum(1 for r in mine if r["verdict"] == v) for v in VERDICTS]
        lines.append(f"| {name} | {len(mine)} | " + " | ".join(map(str, counts)) + " |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="fix_proof.py", description=__doc__.split("\n\n")[0].replace("\n", " ")
    )
    parser.add_argument("step", choices=("prepare", "prove"))
    parser.add_argument(
        "folder", type=Path, help="where the copies, prepared.json and proof.json go"
    )
    parser.add_argument("codes", nargs="*", help="prepare: only the positives found by these rules")
    args = parser.parse_args(argv)
    if args.step == "prepare":
        prepare(args.folder.resolve(), *args.codes)
    elif args.codes:
        parser.error("prove takes no rule codes: prepare chose the programs")
    else:
        prove(args.folder.resolve())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
