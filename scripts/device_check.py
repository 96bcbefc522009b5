"""Check `retracelint confirm` on an accelerator: every rule page's examples, and transparency.

    python scripts/device_check.py [--only RTL101 RTL203 ...] [--keep DIR]

Run it from the checkout on the machine to check (jax installed; click, networkx and libcst for the
static pass; retracelint itself need not be installed). Nothing is set for JAX: each program runs on
the default backend, one process at a time (an accelerator is held by one process).

It writes the flagged and the fixed example of every page rules/RTL*.md into one folder and runs
them all, one after the other in one Python process (an accelerator starts once: ~16 s on a TPU
v5e), twice: plainly and under `retracelint confirm --guard all`. A row of the table says how many
re-traces confirm saw in the flagged program (it must see some; RTL203's flagged program raises
JAX's unhashable-static error instead, which confirm reports as its evidence) and in the fixed one
(it must see none), the two programs' seconds each way, and whether they printed the same under
confirm as plainly; the backend is JAX's default one, as confirm recorded it. Then a probe program (JAX's own objects, pickling, errors, compiled code, the leak checker)
and examples/run.py run both ways and must print the same. The exit status is 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RAISES_INSTEAD = {"RTL203"}  # its flagged example raises before JAX traces again
RUN_LIMIT_S = 600  # one program, either way; far above what any takes

# Runs each program as `python FILE` would, one after the other in one process, and writes how
# long each took to the file named first; an exception is printed as Python prints it and the next
# program still runs (RTL203's flagged example raises by design).
DRIVER = """\
import json, runpy, sys, time
seconds = {}
for path in sys.argv[2:]:
    print("==", path, flush=True)
    start = time.perf_counter()
    try:
        runpy.run_path(path, run_name="__main__")
    except Exception:  # as Python ends a program with it (confirm reads sys.last_value)
        sys.last_type, sys.last_value, sys.last_traceback = sys.exc_info()
        sys.excepthook(*sys.exc_info())
    seconds[path] = time.perf_counter() - start
    sys.stdout.flush()
with open(sys.argv[1], "w") as out:
    json.dump(seconds, out)
"""

# What a program can see of JAX, printed: confirm must not change any of it.
PROBE = """\
import functools, hashlib, pickle, sys
import jax
import jax.numpy as jnp
from jax._src import api, pmap

print("sys.excepthook is Python's own:", sys.excepthook is sys.__excepthook__)
print("jax.jit is JAX's own:", jax.jit is api.jit, "and jax.pmap:", jax.pmap is pmap.pmap)
maker = pickle.loads(pickle.dumps(functools.partial(jax.jit, static_argnums=1)))
print("pickled partial(jax.jit):", maker.func is jax.jit, maker.keywords)
try:
    jax.jit(bogus=1)
except Exception as exc:
    print("jax.jit(bogus=1):", type(exc).__name__, exc)

@jax.jit
def scaled(x, k=2.0):
    print("tracing scaled for", x.shape, x.dtype)
    return jnp.tanh(x) * k

for n in (1, 2, 2, 3):
    print(n, scaled(jnp.arange(n, dtype=jnp.float32)).tolist())
print("scaled is a", type(scaled).__name__, "named", scaled.__name__)
text = scaled.lower(jnp.ones(4)).as_text()
print("lowered text sha256:", hashlib.sha256(text.encode()).hexdigest()[:16])

with jax.checking_leaks():
    inner = jax.jit(lambda y: y * 2)
    print("leak checker, jit in jit:", float(jax.jit(lambda y: inner(y) + 1)(1.0)))
print("grad of a jitted function:", float(jax.grad(jax.jit(lambda y: y ** 3))(2.0)))
"""


@dataclass(frozen=True)
class Page:
    code: str
    flagged: str
    fixed: str


_TITLE = re.compile(r"^# (RTL\d+):", re.MULTILINE)
_SECTION = re.compile(
    r"^## (Flagged|Fixed) example\s*\n.*?^```python[ \t]*\n(.*?)^```", re.M | re.S
)


def read_pages(rules: Path) -> list[Page]:
    """The rule pages with both examples (RTL000 and RTL901 have none)."""
    pages = []
    for path in sorted(rules.glob("RTL*.md")):
        text = path.read_text(encoding="utf-8")
        title = _TITLE.search(text)
        blocks = {m.group(1): m.group(2) for m in _SECTION.finditer(text)}
        if title and {"Flagged", "Fixed"} <= set(blocks):
            pages.append(Page(title.group(1), blocks["Flagged"], blocks["Fixed"]))
    return pages


@dataclass
class Run:
    stdout: str
    seconds: float
    returncode: int
    tail: str


def run(command: list[str], cwd: Path, env: dict[str, str]) -> Run:
    start = time.monotonic()
    proc = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=RUN_LIMIT_S, check=False
    )
    tail = (proc.stdout + proc.stderr)[-2000:]
    return Run(proc.stdout, time.monotonic() - start, proc.returncode, tail)


def confirm_command(report: Path, program: list[str]) -> list[str]:
    return [
        sys.executable, "-m", "retracelint", "confirm", "--guard", "all",
        "--format", "json", "-o", str(report), ".", "--", *program,
    ]  # fmt: skip


def read_report(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def retraces_in(report: dict, filename: str | None = None) -> int:
    """Re-traces confirm saw at the jit sites of one program (of all, without a name), under a
    finding or as RTL901."""
    entries = report.get("findings", []) + report.get("unpredicted", [])
    return sum(
        int(e.get("retraces") or 0)
        for e in entries
        if filename is None or Path(e["path"]).name == filename
    )


def confirmed(report: dict, filename: str, code: str) -> bool:
    return any(
        Path(f["path"]).name == filename and f["code"] == code and f["status"] == "confirmed"
        for f in report.get("findings", [])
    )


def outputs_by_program(stdout: str) -> dict[str, str]:
    """What each program printed, after the driver's `== FILE` line."""
    out: dict[str, str] = {}
    name = ""
    for line in stdout.splitlines(keepends=True):
        if line.startswith("== "):
            name = line[3:].strip()
            out[name] = ""
        else:
            out[name] = out.get(name, "") + line
    return out


@dataclass
class Way:
    """One run of all the pages' programs: what each printed and how long each took."""

    run: Run
    outputs: dict[str, str]
    seconds: dict[str, float]


@dataclass
class Row:
    code: str
    flagged: str
    fixed: int
    plain_s: float
    confirm_s: float
    same_output: bool
    problems: list[str]


def page_row(page: Page, report: dict, plain: Way, watched: Way) -> Row:
    flagged, fixed = f"{page.code}_flagged.py", f"{page.code}_fixed.py"
    problems = []
    if page.code in RAISES_INSTEAD:
        ok = confirmed(report, flagged, page.code)
        shown = "raised" if ok else "0"
    else:
        seen = retraces_in(report, flagged)
        ok = seen > 0 and confirmed(report, flagged, page.code)
        shown = str(seen)
    if not ok:
        problems.append(f"{flagged}: no confirmed {page.code} re-trace")
    fixed_retraces = retraces_in(report, fixed)
    if fixed_retraces:
        problems.append(f"{fixed}: {fixed_retraces} re-trace(s)")
    same = True
    for program in (flagged, fixed):
        before, after = plain.outputs.get(program), watched.outputs.get(program)
        if before != after:
            same = False
            problems.append(f"{program} printed plainly\n{before}\nand under confirm\n{after}")
    seconds = [sum(w.seconds.get(p, 0.0) for p in (flagged, fixed)) for w in (plain, watched)]
    return Row(page.code, shown, fixed_retraces, *seconds, same, problems)


def run_pages(pages: list[Page], work: Path, env: dict[str, str]) -> tuple[dict, Way, Way]:
    """All pages' programs, in one process plainly and in one under confirm."""
    folder = work / "pages"
    folder.mkdir()
    names = []
    for page in pages:
        for kind, source in (("flagged", page.flagged), ("fixed", page.fixed)):
            names.append(f"{page.code}_{kind}.py")
            (folder / names[-1]).write_text(source, encoding="utf-8")
    (work / "driver.py").write_text(DRIVER, encoding="utf-8")
    ways = []
    for way in ("plain", "confirm"):
        timings = work / f"{way}.seconds.json"
        program = [sys.executable, str(work / "driver.py"), str(timings), *names]
        if way == "confirm":
            program = confirm_command(work / "pages.json", program)
        done = run(program, folder, env)
        seconds = json.loads(timings.read_text(encoding="utf-8")) if timings.exists() else {}
        ways.append(Way(done, outputs_by_program(done.stdout), seconds))
    return read_report(work / "pages.json"), ways[0], ways[1]


def check_transparency(
    name: str, program: list[str], cwd: Path, work: Path, env: dict[str, str]
) -> tuple[str, list[str]]:
    plain = run(program, cwd, env)
    watched = run(confirm_command(work / f"{Path(name).stem}.json", program), cwd, env)
    report = read_report(work / f"{Path(name).stem}.json")
    problems = []
    if plain.returncode != 0:
        problems.append(f"{name} fails plainly (exit {plain.returncode}):\n{plain.tail}")
    # confirm exits with its own verdict; the report keeps the program's exit status.
    status = report.get("exit_code")
    if (plain.stdout, plain.returncode) != (watched.stdout, status):
        problems.append(
            f"{name}: under confirm (exit {status}) it printed\n{watched.stdout}\n"
            f"plainly (exit {plain.returncode})\n{plain.stdout}\n{watched.tail}"
        )
    # Proof that confirm watched: both programs re-trace on purpose.
    seen = retraces_in(report)
    if not seen:
        problems.append(f"{name}: confirm saw no re-trace:\n{watched.tail}")
    line = f"{name}: {len(plain.stdout.splitlines())} lines, "
    line += f"{'same' if not problems else 'DIFFERENT'} under confirm, {seen} re-traces seen "
    line += f"(plain {plain.seconds:.1f} s, confirm {watched.seconds:.1f} s)"
    return line, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="rule codes to run (default: every page)")
    parser.add_argument(
        "--keep", type=Path, help="write the programs and reports here, and keep them"
    )
    args = parser.parse_args(argv)
    started = time.monotonic()
    env = dict(os.environ)
    # retracelint from this checkout, installed or not.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    work = args.keep or Path(tempfile.mkdtemp(prefix="retracelint-device-"))
    if args.keep:
        shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True, exist_ok=True)
    pages = [p for p in read_pages(ROOT / "rules") if not args.only or p.code in args.only]
    print(f"python {sys.version.split()[0]}, JAX_PLATFORMS={env.get('JAX_PLATFORMS', '(unset)')}")
    problems: list[str] = []
    try:
        report, plain, watched = run_pages(pages, work, env)
        backend = ",".join(report.get("backends_seen", [])) or "?"
        print(f"backend: {backend}")
        print("| rule | flagged re-traces | fixed re-traces | plain s | confirm s | same output |")
        print("|---|---|---|---|---|---|")
        for page in pages:
            row = page_row(page, report, plain, watched)
            print(
                f"| {row.code} | {row.flagged} | {row.fixed} | {row.plain_s:.2f} "
                f"| {row.confirm_s:.2f} | {'yes' if row.same_output else 'NO'} |"
            )
            problems += [f"{row.code}: {p}" for p in row.problems]
        if not report:
            problems.append(f"confirm wrote no report:\n{watched.run.tail}")
        if report.get("exit_code") != plain.run.returncode:
            problems.append(f"pages: exit {report.get('exit_code')} under confirm, "
                            f"{plain.run.returncode} plainly")  # fmt: skip
        print(f"all pages in one process: plain {plain.run.seconds:.1f} s, confirm "
              f"{watched.run.seconds:.1f} s (with its static pass)", flush=True)  # fmt: skip
        (work / "probe.py").write_text(PROBE, encoding="utf-8")
        checks = [
            ("probe.py", [sys.executable, "probe.py"], work),
            ("examples/run.py", [sys.executable, "run.py"], ROOT / "examples"),
        ]
        for name, program, cwd in checks:
            line, found = check_transparency(name, program, cwd, work, env)
            print(line, flush=True)
            problems += found
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{len(pages)} rule pages, {time.monotonic() - started:.0f} s in all")
    for problem in problems:
        print("MISMATCH", problem)
    print("OK" if not problems else f"{len(problems)} mismatch(es)")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
