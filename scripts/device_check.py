"""Check `retracelint confirm` on an accelerator: every rule page's examples, and transparency.

    python scripts/device_check.py [--only RTL101 RTL203 ...] [--keep DIR]

Run it from the checkout on the machine to check (jax installed; click, networkx and libcst for the
static pass; retracelint itself need not be installed). Nothing is set for JAX: each program runs on
the default backend, one process at a time (an accelerator is held by one process).

For every page rules/RTL*.md with a flagged and a fixed example it writes both programs into a folder
of their own and runs them, one after the other in one Python process, twice: plainly and under
`retracelint confirm --guard all`. A row of the table says how many re-traces confirm saw in the
flagged program (it must see some; RTL203's flagged program raises JAX's unhashable-static error
instead, which confirm reports as its evidence) and in the fixed one (it must see none), the backend
the program ran on, both wall times, and whether the programs printed the same under confirm as
plainly. Then a probe program (JAX's own objects, pickling, errors, compiled code, the leak checker)
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

# Runs each program as `python FILE` would; an exception is printed as Python prints it and the
# next program still runs (RTL203's flagged example raises by design).
DRIVER = """\
import runpy, sys
for path in sys.argv[1:]:
    print("==", path, flush=True)
    try:
        runpy.run_path(path, run_name="__main__")
    except Exception:
        sys.excepthook(*sys.exc_info())
    sys.stdout.flush()
"""

# What a program can see of JAX, printed: confirm must not change any of it.
PROBE = """\
import functools, hashlib, pickle
import jax
import jax.numpy as jnp
from jax._src import api, pmap

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


def retraces_in(report: dict, filename: str | None = None) -> int:
    """Re-traces confirm saw at the jit sites of one program (of all, without a name), under a
    finding or as RTL901."""
    entries = report.get("findings", []) + report.get("unpredicted", [])
    return sum(
        int(e.get("retraces") or 0)
        for e in entries
        if filename is None or Path(e["path"]).name == filename
    )


def raised_as_predicted(report: dict, filename: str, code: str) -> bool:
    return any(
        Path(f["path"]).name == filename and f["code"] == code and f["status"] == "confirmed"
        for f in report.get("findings", [])
    )


@dataclass
class Row:
    code: str
    flagged: str
    fixed: int
    backend: str
    plain_s: float
    confirm_s: float
    same_output: bool
    problems: list[str]


def check_page(page: Page, work: Path, env: dict[str, str]) -> Row:
    folder = work / page.code
    folder.mkdir(parents=True)
    flagged, fixed = f"{page.code}_flagged.py", f"{page.code}_fixed.py"
    (folder / flagged).write_text(page.flagged, encoding="utf-8")
    (folder / fixed).write_text(page.fixed, encoding="utf-8")
    (work / "driver.py").write_text(DRIVER, encoding="utf-8")
    program = [sys.executable, str(work / "driver.py"), flagged, fixed]
    plain = run(program, folder, env)
    report_file = folder / "report.json"
    watched = run(confirm_command(report_file, program), folder, env)
    problems = []
    report = json.loads(report_file.read_text(encoding="utf-8")) if report_file.exists() else {}
    if not report:
        problems.append(f"no report (exit {watched.returncode}): {watched.tail}")
    seen = retraces_in(report, flagged)
    if page.code in RAISES_INSTEAD:
        ok = raised_as_predicted(report, flagged, page.code)
        shown = "raised" if ok else "0"
    else:
        ok = seen > 0 and raised_as_predicted(report, flagged, page.code)
        shown = str(seen)
    if not ok:
        problems.append(f"{flagged}: no confirmed {page.code} re-trace")
    fixed_retraces = retraces_in(report, fixed)
    if fixed_retraces:
        problems.append(f"{fixed}: {fixed_retraces} re-trace(s)")
    # confirm exits with its own verdict; the report keeps the program's exit status.
    same = (plain.stdout, plain.returncode) == (watched.stdout, report.get("exit_code"))
    if not same:
        problems.append(f"output under confirm differs from the plain run:\n{watched.tail}")
    return Row(
        page.code,
        shown,
        fixed_retraces,
        ",".join(report.get("backends_seen", [])) or "?",
        plain.seconds,
        watched.seconds,
        same,
        problems,
    )


def check_transparency(
    name: str, program: list[str], cwd: Path, work: Path, env: dict[str, str]
) -> tuple[str, list[str]]:
    plain = run(program, cwd, env)
    report_file = work / f"{name}.report.json"
    watched = run(confirm_command(report_file, program), cwd, env)
    problems = []
    if plain.returncode != 0:
        problems.append(f"{name} fails plainly (exit {plain.returncode}):\n{plain.tail}")
    report = json.loads(report_file.read_text(encoding="utf-8")) if report_file.exists() else {}
    status = report.get("exit_code")
    if (plain.stdout, plain.returncode) != (watched.stdout, status):
        problems.append(
            f"{name}: under confirm (exit {status}) it printed\n{watched.stdout}\n"
            f"plainly (exit {plain.returncode})\n{plain.stdout}\n{watched.tail}"
        )
    # Proof that confirm watched: both programs re-trace on purpose.
    seen = retraces_in(report)
    if not seen:
        problems.append(
            f"{name}: confirm saw no re-trace (exit {watched.returncode}):\n{watched.tail}"
        )
    lines = len(plain.stdout.splitlines())
    line = f"{name}: {lines} lines, {'same' if not problems else 'DIFFERENT'} under confirm, "
    line += f"{seen} re-traces seen "
    line += f"(plain {plain.seconds:.1f} s, confirm {watched.seconds:.1f} s)"
    return line, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="rule codes to run (default: every page)")
    parser.add_argument(
        "--keep", type=Path, help="write the programs and reports here and keep them"
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
    print(
        "| rule | flagged re-traces | fixed re-traces | backend | plain s | confirm s | same output |"
    )
    print("|---|---|---|---|---|---|---|")
    problems: list[str] = []
    try:
        for page in pages:
            row = check_page(page, work, env)
            print(
                f"| {row.code} | {row.flagged} | {row.fixed} | {row.backend} | {row.plain_s:.1f} "
                f"| {row.confirm_s:.1f} | {'yes' if row.same_output else 'NO'} |",
                flush=True,
            )
            problems += [f"{row.code}: {p}" for p in row.problems]
        (work / "probe.py").write_text(PROBE, encoding="utf-8")
        checks = [
            ("probe.py", [sys.executable, "probe.py"], work),
            ("examples/run.py", [sys.executable, "run.py"], ROOT / "examples"),
        ]
        for name, program, cwd in checks:
            line, found = check_transparency(name.replace("/", "_"), program, cwd, work, env)
            print(line.replace(name.replace("/", "_"), name, 1), flush=True)
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
