"""Measure retracelint against the libcst parse-only limit and its peers, in one run.

Usage: python benchmarks/run.py [--corpus DIR] [--runs N] [--only NAME,...] [--subset N] [--json OUT]

Every row is a whole process timed from outside (interpreter start-up and imports included):
median wall time of N runs with min-max, median CPU time (user + sys of the process and every
child it waited for), the largest single process's peak RSS (exact, from ``wait4``) and, for a
command that starts processes of its own, the peak of the whole tree (PSS summed over the tree, sampled
every 0.05 s in one more, untimed run: reading PSS makes the kernel walk every page of every process, so
it is kept out of the timed runs). Rows that a target compares (1 against 2 processes, an edited file
against its own parse) are timed in turn, A B A B ..., and the target is the median of the per-round
ratios or differences, so that the drift of a shared machine's speed touches both alike; so are the
cold retracelint rows with the libcst ones they are compared with. The tools run
on a fresh copy of the corpus outside this repository, so that no config file or ``.gitignore`` of ours
changes what they see. Rows, ratios and issue-6 targets are printed as Markdown tables.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import make_corpus

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent
BENCH_DIR = REPO_ROOT / ".bench"
PYTHON = sys.executable
MIB = 1024 * 1024

# Peers that bring plugins or dependencies of their own get a venv each, so that neither they nor
# retracelint's flake8 plugin (once installed) change what the other measures.
JAXLINT_REQUIREMENT = "jaxlint==0.1.0a1"
FLAKE8_REQUIREMENT = "flake8==7.5.0"
RETRACELINT_MAIN = "from retracelint.cli import run; run()"

# A run during which other work used more than this many cores on average was not clean: even
# when the measured threads never waited for a core, a busy neighbour on the same physical core
# or cache slows them (measured here: libcst parse-only on 1 core, 36 s quiet, 41 s beside one).
NOISY_CORES = 0.1
# Before each run, wait (up to --quiet-wait seconds) for a second in which the machine was idle.
QUIET_CORES = 0.1


@dataclass
class RunPolicy:
    """How hard to try for clean runs on a machine that other work shares."""

    quiet_wait_s: float = 120.0
    max_reruns: int | None = None  # noisy runs redone per row; None: as many as the row's runs


POLICY = RunPolicy()

GROUPS = {
    "parse": ["cst-j1", "cst-j2", "ast"],
    "rtl": [
        "rtl-cold-j1",
        "rtl-cold-j2",
        "rtl-warm",
        "leaf-parse",
        "rtl-leaf",
        "rtl-leaf-edit",
        "rtl-hub",
        "rtl-hub-edit",
    ],
    "peers": ["ruff-all", "ruff-default", "flake8-j2", "jaxlint"],
}


# ----------------------------------------------------------------------------- measurement


@dataclass(frozen=True)
class Sample:
    """One timed run of one command."""

    wall_s: float
    cpu_s: float
    max_rss_mib: float  # largest single process of the tree, exact
    tree_mib: float  # whole tree: max(summed PSS, max_rss_mib) if sampled, else max_rss_mib
    returncode: int
    processes: int = 1  # how many processes the tree had at most (sampled)
    # CPU the machine spent on anything else meanwhile (other processes, hypervisor steal): a
    # large value means the run competed for the cores and its wall time is not clean.
    other_cpu_s: float = 0.0
    # Seconds the measured threads were runnable but had no core (sampled every 0.1 s).
    runqueue_wait_s: float = 0.0


@dataclass
class RowResult:
    name: str
    what: str
    command: str = ""
    status: str = "ok"  # ok | unavailable | error
    note: str = ""
    samples: list[Sample] = field(default_factory=list)
    rerun: int = 0  # runs thrown away because other work competed for the cores
    memory_run: Sample | None = None  # the untimed run that sampled the tree's memory
    timed_in_turn_with: tuple[str, ...] = ()  # rows whose runs alternated with these (``in_turn``)

    @property
    def measured(self) -> bool:
        return self.status == "ok" and bool(self.samples)

    @property
    def wall(self) -> float:
        return statistics.median(s.wall_s for s in self.samples)

    @property
    def wall_range(self) -> tuple[float, float]:
        walls = [s.wall_s for s in self.samples]
        return min(walls), max(walls)

    @property
    def cpu(self) -> float:
        return statistics.median(s.cpu_s for s in self.samples)

    @property
    def other_cpu(self) -> float:
        return statistics.median(s.other_cpu_s for s in self.samples)

    @property
    def runqueue_wait(self) -> float:
        return statistics.median(s.runqueue_wait_s for s in self.samples)

    @property
    def max_rss(self) -> float:
        return max(s.max_rss_mib for s in self.samples)

    @property
    def tree_peak(self) -> float:
        runs = [*self.samples, *([self.memory_run] if self.memory_run else [])]
        return max(s.tree_mib for s in runs)


def busy_cpu_s() -> float:
    """Machine-wide non-idle CPU seconds since boot, steal included (``/proc/stat``)."""
    try:
        with open("/proc/stat") as fh:
            fields = [int(v) for v in fh.readline().split()[1:9]]
    except (OSError, ValueError):
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def wait_for_quiet(limit_s: float) -> None:
    """Let a neighbour's burst (a test suite, a build) pass before starting a timed run."""
    start = time.perf_counter()
    while time.perf_counter() - start < limit_s:
        before = busy_cpu_s()
        time.sleep(1.0)
        if busy_cpu_s() - before < QUIET_CORES:
            break
    waited = time.perf_counter() - start
    if waited > 2:
        progress(f"  waited {waited:.0f} s for the machine to be quiet")


def _process_tree(pid: int) -> Iterator[tuple[int, list[str]]]:
    """The process and its descendants, each with its thread ids."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return
    yield pid, tids
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as fh:
                children = [int(c) for c in fh.read().split()]
        except OSError:
            continue
        for child in children:
            yield from _process_tree(child)


def _runqueue_wait_ns(pid: int, tid: str) -> int | None:
    """Time the thread was runnable but had no CPU (``schedstat``, second field)."""
    try:
        with open(f"/proc/{pid}/task/{tid}/schedstat") as fh:
            return int(fh.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _pss_kib(pid: int) -> int:
    """Proportional set size: pages shared by forked workers are counted once over the tree."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class TreeSampler(threading.Thread):
    """Polls a process tree until stopped: run-queue wait per thread, the most processes seen, and,
    with ``memory``, the peak of summed PSS.

    The run-queue wait shows how much a run lost to competition for the cores; a pool of N
    workers plus its parent on N cores waits a few seconds even on an idle machine. PSS is read
    only when asked: reading it every 0.1 s cost ~0.45 CPU-s over an 8 s run of 2 processes on
    this 2-core machine, CPU taken from the run being timed.
    """

    def __init__(self, pid: int, memory: bool = False) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.memory = memory
        self.interval_s = 0.05 if memory else 0.1
        self.peak_kib = 0
        self.processes = 1
        self.wait_ns: dict[tuple[int, str], int] = {}
        self._stop_event = threading.Event()

    def run(self) -> None:
        while True:
            self.sample()
            if self._stop_event.wait(self.interval_s):
                return

    def sample(self) -> None:
        total = 0
        tree = list(_process_tree(self.pid))
        for pid, tids in tree:
            if self.memory:
                total += _pss_kib(pid)
            for tid in tids:
                waited = _runqueue_wait_ns(pid, tid)
                if waited is not None:
                    self.wait_ns[pid, tid] = waited
        self.peak_kib = max(self.peak_kib, total)
        self.processes = max(self.processes, len(tree))

    def stop(self) -> tuple[float, float]:
        """Peak tree memory in MiB (0 unless sampled) and total run-queue wait in seconds."""
        self._stop_event.set()
        self.join()
        return self.peak_kib / 1024, sum(self.wait_ns.values()) / 1e9


@dataclass(frozen=True)
class Outcome:
    sample: Sample
    stdout: str
    stderr: str


def run_once(
    cmd: Sequence[str], cwd: Path, env: dict[str, str] | None = None, memory: bool = False
) -> Outcome:
    """Run ``cmd`` and time it; ``wait4`` gives the CPU and peak RSS of exactly this run; with
    ``memory``, the tree's summed PSS is sampled too."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        busy_before = busy_cpu_s()
        start = time.perf_counter()
        proc = subprocess.Popen(list(cmd), cwd=cwd, env=env, stdout=out, stderr=err)
        sampler = TreeSampler(proc.pid, memory)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        busy = busy_cpu_s() - busy_before
        tree_mib, waited = sampler.stop()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode(errors="replace")
        stderr = err.read().decode(errors="replace")
    max_rss = usage.ru_maxrss / 1024  # KiB on Linux
    cpu = usage.ru_utime + usage.ru_stime
    sample = Sample(
        wall_s=wall,
        cpu_s=cpu,
        max_rss_mib=max_rss,
        tree_mib=max(tree_mib, max_rss),
        returncode=proc.returncode,
        other_cpu_s=max(0.0, busy - cpu),
        runqueue_wait_s=waited,
        processes=sampler.processes,
    )
    return Outcome(sample, stdout, stderr)


def last_line(text: str) -> str:
    # Rich tracebacks draw boxes; strip them so that the exception line reads plainly.
    lines = [ln.strip(" │╭╮╰╯─") for ln in text.splitlines()]
    lines = [ln for ln in lines if ln]
    return lines[-1][:200] if lines else ""


# ----------------------------------------------------------------------------- context


@dataclass
class Context:
    tree: Path  # the copy of the corpus every tool runs on
    work: Path
    runs: int
    flake8_runs: int
    retracelint: list[str] = field(default_factory=lambda: [PYTHON, "-c", RETRACELINT_MAIN])
    retracelint_missing: str | None = None  # why the retracelint rows cannot run
    picks: dict[str, Path] = field(default_factory=dict)
    picks_info: dict[str, str] = field(default_factory=dict)
    jaxlint_packages: list[JaxlintPackage] = field(default_factory=list)

    @property
    def cache_dir(self) -> Path:
        return self.work / "retracelint-cache"


def corpus_files(corpus: Path, subset: int) -> list[Path]:
    files = sorted(
        (p.relative_to(corpus) for p in corpus.rglob("*.py")), key=lambda p: p.as_posix()
    )
    return files[::subset]


def make_tree(corpus: Path, work: Path, subset: int) -> Path:
    """A fresh copy, so that edits by the changed-file rows never touch the pinned corpus."""
    tree = work / "tree"
    if tree.exists():
        shutil.rmtree(tree)
    for rel in corpus_files(corpus, subset):
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(corpus / rel, tree / rel)
    return tree


def ensure_venv(name: str, requirement: str) -> Path:
    """Create ``.bench/venv-NAME`` with one pinned requirement, once."""
    venv = BENCH_DIR / f"venv-{name}"
    marker = venv / "installed.txt"
    if marker.is_file() and marker.read_text() == requirement:
        return venv
    if venv.exists():
        shutil.rmtree(venv)
    subprocess.run([PYTHON, "-m", "venv", str(venv)], check=True)
    pip = [
        str(venv / "bin" / "python"),
        "-m",
        "pip",
        "install",
        "-q",
        "--disable-pip-version-check",
    ]
    subprocess.run([*pip, requirement], check=True)
    marker.write_text(requirement)
    return venv


def tool(name: str) -> str:
    beside = Path(PYTHON).parent / name
    return str(beside) if beside.exists() else (shutil.which(name) or name)


def retracelint_env() -> dict[str, str]:
    # The checkout, not whatever copy may be installed, is what gets measured.
    path = os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path}


def retracelint_missing(prefix: list[str]) -> str | None:
    """Why ``PREFIX --help`` does not work, or None when the CLI is there."""
    try:
        probe = subprocess.run(
            [*prefix, "--help"], env=retracelint_env(), capture_output=True, text=True
        )
    except OSError as exc:
        return f"unavailable: {exc}"
    if probe.returncode == 0:
        return None
    return f"unavailable: retracelint --help exited {probe.returncode} ({last_line(probe.stderr)})"


# ----------------------------------------------------------------------------- import scan

IMPORT_RE = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)|import[ \t]+([^\n#;]+))",
    re.MULTILINE,
)


def module_name(rel: Path) -> tuple[str, bool]:
    """Dotted name of ``<dist>/<path>.py`` and whether it is a package ``__init__``."""
    parts = list(rel.parts[1:])
    is_package = parts[-1] == "__init__.py"
    parts = parts[:-1] if is_package else [*parts[:-1], parts[-1][:-3]]
    return ".".join(parts), is_package


def imported_names(text: str, module: str, is_package: bool) -> set[str]:
    """Dotted names a module imports, relative imports resolved; submodules of ``from`` too."""
    package = module if is_package else module.rpartition(".")[0]
    names: set[str] = set()
    for match in IMPORT_RE.finditer(text):
        source, imported, plain = match.groups()
        if plain is not None:
            names.update(_split_names(plain))
            continue
        base = _resolve(source, package)
        names.add(base)
        names.update(f"{base}.{n}" if base else n for n in _split_names(imported.strip("()")))
    return names


def _split_names(clause: str) -> list[str]:
    return [part.split(" as ")[0].strip() for part in clause.split(",") if part.strip()]


def _resolve(source: str, package: str) -> str:
    level = len(source) - len(source.lstrip("."))
    if not level:
        return source
    parts = package.split(".") if package else []
    parts = parts[: len(parts) - (level - 1)] if level > 1 else parts
    rest = source[level:]
    return ".".join([*parts, rest] if rest else parts)


def importer_counts(tree: Path) -> dict[Path, int]:
    """For each file of the tree, how many other files import it directly."""
    modules: dict[str, Path] = {}
    texts: dict[Path, tuple[str, str, bool]] = {}
    for path in sorted(tree.rglob("*.py")):
        rel = path.relative_to(tree)
        name, is_package = module_name(rel)
        modules.setdefault(name, rel)
        texts[rel] = (path.read_text(encoding="utf-8", errors="replace"), name, is_package)
    counts: Counter[Path] = Counter({rel: 0 for rel in texts})
    for rel, (text, name, is_package) in texts.items():
        targets = {modules[n] for n in imported_names(text, name, is_package) if n in modules}
        counts.update(t for t in targets if t != rel)
    return dict(counts)


def pick_files(ctx: Context) -> None:
    """The files the changed-file rows edit.

    leaf: the median-size module that no other file imports (``__init__`` and ``__main__`` left
    out). hub: the module that the most files import directly; package ``__init__`` files are left
    out, because they mostly re-export and are rarely what a user edits.
    """
    counts = importer_counts(ctx.tree)
    modules = {
        rel: n for rel, n in counts.items() if rel.name not in ("__init__.py", "__main__.py")
    }
    leaves = sorted(
        (rel for rel, n in modules.items() if n == 0),
        key=lambda rel: ((ctx.tree / rel).stat().st_size, rel.as_posix()),
    )
    if leaves:
        pick(ctx, "leaf", leaves[len(leaves) // 2], 0)
    if modules:
        hub = max(modules, key=lambda rel: (modules[rel], rel.as_posix()))
        pick(ctx, "hub", hub, modules[hub])


def pick(ctx: Context, kind: str, rel: Path, importers: int) -> None:
    ctx.picks[kind] = ctx.tree / rel
    lines = (ctx.tree / rel).read_bytes().count(b"\n")
    ctx.picks_info[kind] = (
        f"{rel.as_posix()} ({lines:,} lines, imported directly by {importers} files)"
    )


# ----------------------------------------------------------------------------- rows


@dataclass(frozen=True)
class Plan:
    """How one row is timed: its command, and what is done before and after each run."""

    name: str
    what: str
    cmd: Sequence[str]
    cwd: Path
    runs: int
    env: dict[str, str] | None = None
    ok_codes: frozenset[int] = frozenset({0})
    before_each: Callable[[int], None] | None = None  # given a number no other run of the row had
    after_each: Callable[[], None] | None = None
    note: str = ""


def repeat(plan: Plan) -> RowResult:
    """Time one row alone."""
    return in_turn([plan])[0]


def in_turn(plans: Sequence[Plan]) -> list[RowResult]:
    """Time each plan ``plan.runs`` times, the plans in turn (A B A B ...); a run that exits with an
    unexpected code ends its row. Then, for a command that started processes of its own, one more
    run, untimed, samples the memory of the whole tree."""
    results = [
        RowResult(p.name, p.what, command=" ".join(_short(c) for c in p.cmd), note=p.note)
        for p in plans
    ]
    for result in results:
        result.timed_in_turn_with = tuple(p.name for p in plans if p.name != result.name)
    for _ in range(max(p.runs for p in plans)):
        for plan, result in zip(plans, results, strict=True):
            if result.status == "ok" and len(result.samples) < plan.runs:
                _one_counted_run(plan, result)
    for plan, result in zip(plans, results, strict=True):
        if result.measured and max(s.processes for s in result.samples) > 1:
            progress(f"{plan.name}: one more run (untimed) for the memory of the process tree")
            result.memory_run = _run(plan, len(result.samples) + result.rerun, memory=True).sample
    return results


def _one_counted_run(plan: Plan, result: RowResult) -> None:
    """One run that counts. A run during which other work took a noticeable share of the machine
    is done again (at most ``runs`` times per row), so that a neighbour's burst does not land in the
    median."""
    budget = plan.runs if POLICY.max_reruns is None else POLICY.max_reruns
    while True:
        outcome = _run(plan, len(result.samples) + result.rerun)
        sample = outcome.sample
        noisy = sample.other_cpu_s > NOISY_CORES * sample.wall_s
        retry = noisy and result.rerun < budget and sample.returncode in plan.ok_codes
        label = " (others were busy: run again)" if retry else ""
        progress(
            f"{plan.name} run {len(result.samples) + 1}/{plan.runs}: {sample.wall_s:.2f} s{label}"
        )
        if not retry:
            break
        result.rerun += 1
    result.samples.append(sample)
    if sample.returncode not in plan.ok_codes:
        result.status = "error"
        result.note = f"exit {sample.returncode}: {last_line(outcome.stderr)}"


def _run(plan: Plan, attempt: int, memory: bool = False) -> Outcome:
    wait_for_quiet(POLICY.quiet_wait_s)
    if plan.before_each:
        plan.before_each(attempt)
    try:
        return run_once(plan.cmd, plan.cwd, plan.env, memory)
    finally:
        if plan.after_each:
            plan.after_each()


def in_pairs(top: RowResult, bottom: RowResult) -> bool:
    """Timed in turn, with as many runs each: run i of one can be compared with run i of the other."""
    return bottom.name in top.timed_in_turn_with and len(top.samples) == len(bottom.samples)


def pair_ratio(top: RowResult, bottom: RowResult) -> float:
    """``top`` over ``bottom``: the median of the per-pair ratios when the two were timed in turn,
    else the ratio of their medians."""
    if in_pairs(top, bottom):
        return statistics.median(
            a.wall_s / b.wall_s for a, b in zip(top.samples, bottom.samples, strict=True)
        )
    return top.wall / bottom.wall


def pair_difference(top: RowResult, bottom: RowResult) -> float:
    """``top`` minus ``bottom`` in seconds, per pair when the two were timed in turn."""
    if in_pairs(top, bottom):
        return statistics.median(
            a.wall_s - b.wall_s for a, b in zip(top.samples, bottom.samples, strict=True)
        )
    return top.wall - bottom.wall


def _short(arg: str) -> str:
    for prefix, label in ((str(REPO_ROOT) + "/", ""), (str(Path(PYTHON).parent) + "/", "")):
        if arg.startswith(prefix):
            arg = label + arg[len(prefix) :]
    return arg if " " not in arg else repr(arg)


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def parse_only(parser: str, jobs: int, paths: Sequence[Path]) -> list[str]:
    return [PYTHON, str(HERE / "parse_only.py"), parser, "-j", str(jobs), *map(str, paths)]


def plan_cst(jobs: int) -> Callable[[Context], Plan | RowResult]:
    def plan(ctx: Context) -> Plan:
        cmd = parse_only("libcst", jobs, [ctx.tree])
        what = f"libcst.parse_module only, {jobs} process{'es' if jobs > 1 else ''}"
        return Plan(f"cst-j{jobs}", what, cmd, ctx.work, ctx.runs)

    return plan


def row_ast(ctx: Context) -> RowResult:
    cmd = parse_only("ast", 1, [ctx.tree])
    return repeat(Plan("ast", "ast.parse only, 1 process", cmd, ctx.work, ctx.runs))


def retracelint_cmd(ctx: Context, jobs: int) -> list[str]:
    return [
        *ctx.retracelint,
        "check",
        str(ctx.tree),
        "-j",
        str(jobs),
        "--cache-dir",
        str(ctx.cache_dir),
    ]


RTL_OK = frozenset({0, 1})  # 1 = findings


def add_note(result: RowResult, text: str) -> RowResult:
    result.note = "; ".join(filter(None, [result.note, text]))
    return result


def unavailable(name: str, what: str, reason: str) -> RowResult:
    return RowResult(name, what, status="unavailable", note=reason)


def plan_rtl_cold(jobs: int) -> Callable[[Context], Plan | RowResult]:
    def plan(ctx: Context) -> Plan | RowResult:
        name, what = f"rtl-cold-j{jobs}", f"retracelint, empty cache dir, -j{jobs}"
        if ctx.retracelint_missing:
            return unavailable(name, what, ctx.retracelint_missing)

        def empty_cache(_: int) -> None:
            shutil.rmtree(ctx.cache_dir, ignore_errors=True)

        cmd = retracelint_cmd(ctx, jobs)
        return Plan(
            name, what, cmd, ctx.work, ctx.runs, env=retracelint_env(), ok_codes=RTL_OK,
            before_each=empty_cache,
        )  # fmt: skip

    return plan


def warm_up(ctx: Context) -> str | None:
    """One untimed run so the cache matches the tree as it is now; returns an error or None."""
    progress("retracelint warm-up run (untimed)")
    outcome = run_once(retracelint_cmd(ctx, 2), ctx.work, retracelint_env())
    if outcome.sample.returncode in RTL_OK:
        return None
    return f"warm-up run failed, exit {outcome.sample.returncode}: {last_line(outcome.stderr)}"


def row_rtl_warm(ctx: Context) -> RowResult:
    name, what = "rtl-warm", "retracelint -j2, warm cache, nothing changed"
    if ctx.retracelint_missing:
        return unavailable(name, what, ctx.retracelint_missing)
    error = warm_up(ctx)
    if error:
        return RowResult(name, what, status="error", note=error)
    cmd = retracelint_cmd(ctx, 2)
    return repeat(Plan(name, what, cmd, ctx.work, ctx.runs, retracelint_env(), RTL_OK))


def plan_leaf_parse(ctx: Context) -> Plan | RowResult:
    what = "libcst parse-only of the leaf file alone, 1 process"
    if "leaf" not in ctx.picks:
        return unavailable("leaf-parse", what, "no leaf file in this tree")
    cmd = parse_only("libcst", 1, [ctx.picks["leaf"]])
    return Plan("leaf-parse", what, cmd, ctx.work, ctx.runs)


def plan_rtl_changed(kind: str, code: bool = False) -> Callable[[Context], Plan | RowResult]:
    """An edit of one file: a comment (no fact changes: the last run's findings can be reused) or a
    new function (a fact changes: the file's calls are linked again from the last run's links, or
    the whole project where another file imports it). Before each run, an untimed
    run brings the cache up to date with the tree as it is without the edit, so every timed run
    starts from the same state, whatever other row was timed in between."""

    def plan(ctx: Context) -> Plan | RowResult:
        name = f"rtl-{kind}-edit" if code else f"rtl-{kind}"
        change = "a function appended" if code else "comment appended"
        what = f"retracelint -j2, warm cache, the {kind} file changed ({change})"
        if ctx.retracelint_missing:
            return unavailable(name, what, ctx.retracelint_missing)
        if kind not in ctx.picks:
            return unavailable(name, what, f"no {kind} file in this tree")
        path = ctx.picks[kind]
        original = path.read_bytes()

        def edit(index: int) -> None:
            # The untimed run analyses the unedited tree for real (not read back from the index of
            # whole runs), so every timed run starts from the same state whatever row ran before.
            # The index of every format version: its folder is named by the version.
            for runs in ctx.cache_dir.glob("v*/runs"):
                shutil.rmtree(runs, ignore_errors=True)
            error = warm_up(ctx)
            if error:
                raise RuntimeError(f"{name}: {error}")
            # New content each run, so that every timed run sees content it has not cached.
            if code:
                added = f"\n\ndef _retracelint_benchmark_edit_{index}():\n    return {index}\n"
            else:
                added = f"\n# retracelint benchmark edit {index}\n"
            path.write_bytes(original + added.encode())

        def restore() -> None:
            path.write_bytes(original)

        return Plan(
            name, what, retracelint_cmd(ctx, 2), ctx.work, ctx.runs, env=retracelint_env(),
            ok_codes=RTL_OK, before_each=edit, after_each=restore, note=ctx.picks_info[kind],
        )  # fmt: skip

    return plan


def row_ruff(select_all: bool) -> Callable[[Context], RowResult]:
    def measure(ctx: Context) -> RowResult:
        select = ["--select", "ALL"] if select_all else []
        cmd = [
            tool("ruff"), "check", "--isolated", "--no-cache", "--exit-zero",
            "--output-format", "concise", *select, str(ctx.tree),
        ]  # fmt: skip
        what = "ruff check --select ALL" if select_all else "ruff check, default rules"
        name = "ruff-all" if select_all else "ruff-default"
        result = repeat(Plan(name, what + ", no cache", cmd, ctx.work, ctx.runs))
        return add_note(result, ruff_version())

    return measure


def ruff_version() -> str:
    out = subprocess.run([tool("ruff"), "--version"], capture_output=True, text=True)
    return out.stdout.strip()


def row_flake8(ctx: Context) -> RowResult:
    name, what = "flake8-j2", "flake8, default plugins, -j2"
    try:
        venv = ensure_venv("flake8", FLAKE8_REQUIREMENT)
    except subprocess.CalledProcessError as exc:
        return unavailable(name, what, f"could not install {FLAKE8_REQUIREMENT}: {exc}")
    cmd = [str(venv / "bin" / "flake8"), "--isolated", "-j2", str(ctx.tree)]
    result = repeat(Plan(name, what, cmd, ctx.work, ctx.flake8_runs, ok_codes=frozenset({0, 1})))
    return add_note(result, FLAKE8_REQUIREMENT + " (own venv: pyflakes, pycodestyle, mccabe)")


# ----------------------------------------------------------------------------- jaxlint

DIAGNOSTIC_RE = re.compile(r":\d+:\d+ \[\w+\] ", re.MULTILINE)


@dataclass
class JaxlintPackage:
    """What ``jaxlint check --no-doc`` did on one package of the corpus."""

    dist: str
    returncode: int
    wall_s: float
    diagnostics: int
    crash: str  # the exception line, or "" when it ran to the end


def jaxlint_outcome(dist: str, outcome: Outcome) -> JaxlintPackage:
    crashed = "Traceback" in outcome.stderr
    return JaxlintPackage(
        dist=dist,
        returncode=outcome.sample.returncode,
        wall_s=outcome.sample.wall_s,
        diagnostics=len(DIAGNOSTIC_RE.findall(outcome.stdout)),
        crash=last_line(outcome.stderr) if crashed else "",
    )


def row_jaxlint(ctx: Context) -> RowResult:
    """One process per package, so that a crash on one package does not hide the others."""
    name, what = "jaxlint", "jaxlint check --no-doc, one process per package (sum)"
    try:
        venv = ensure_venv("jaxlint", JAXLINT_REQUIREMENT)
    except subprocess.CalledProcessError as exc:
        return unavailable(name, what, f"could not install {JAXLINT_REQUIREMENT}: {exc}")
    exe = str(venv / "bin" / "jaxlint")
    dists = sorted(p.name for p in ctx.tree.iterdir() if p.is_dir())
    result = RowResult(name, what, command=f"{_short(exe)} check --no-doc TREE/<dist>")
    per_dist: dict[str, list[JaxlintPackage]] = {d: [] for d in dists}
    for index in range(ctx.runs):
        wait_for_quiet(POLICY.quiet_wait_s)
        outcomes = [run_once([exe, "check", "--no-doc", d], ctx.tree) for d in dists]
        for dist, outcome in zip(dists, outcomes, strict=True):
            per_dist[dist].append(jaxlint_outcome(dist, outcome))
        samples = [o.sample for o in outcomes]
        total = Sample(
            wall_s=sum(s.wall_s for s in samples),
            cpu_s=sum(s.cpu_s for s in samples),
            max_rss_mib=max(s.max_rss_mib for s in samples),
            tree_mib=max(s.tree_mib for s in samples),
            returncode=max(s.returncode for s in samples),
            other_cpu_s=sum(s.other_cpu_s for s in samples),
            runqueue_wait_s=sum(s.runqueue_wait_s for s in samples),
        )
        result.samples.append(total)
        progress(f"{name} run {index + 1}/{ctx.runs}: {total.wall_s:.2f} s")
    ctx.jaxlint_packages = [summarise_jaxlint(runs) for runs in per_dist.values()]
    crashed = sum(1 for p in ctx.jaxlint_packages if p.crash)
    result.note = f"{JAXLINT_REQUIREMENT}; crashed on {crashed}/{len(dists)} packages"
    return result


def summarise_jaxlint(runs: list[JaxlintPackage]) -> JaxlintPackage:
    last = runs[-1]
    wall = statistics.median(r.wall_s for r in runs)
    return JaxlintPackage(last.dist, last.returncode, wall, last.diagnostics, last.crash)


# ----------------------------------------------------------------------------- report

PLANS: dict[str, Callable[[Context], Plan | RowResult]] = {
    "cst-j1": plan_cst(1),
    "cst-j2": plan_cst(2),
    "rtl-cold-j1": plan_rtl_cold(1),
    "rtl-cold-j2": plan_rtl_cold(2),
    "leaf-parse": plan_leaf_parse,
    "rtl-leaf": plan_rtl_changed("leaf"),
    "rtl-leaf-edit": plan_rtl_changed("leaf", code=True),
    "rtl-hub": plan_rtl_changed("hub"),
    "rtl-hub-edit": plan_rtl_changed("hub", code=True),
}
# Rows that a target compares with each other are timed in turn (those of a group that are asked for).
IN_TURN = (
    # cold -j2 against libcst at 2 processes (issue 12's ratio), and each against its -j1 row
    ("cst-j1", "cst-j2", "rtl-cold-j1", "rtl-cold-j2"),
    ("leaf-parse", "rtl-leaf", "rtl-leaf-edit"),
)


def planned(name: str) -> Callable[[Context], RowResult]:
    def measure(ctx: Context) -> RowResult:
        plan = PLANS[name](ctx)
        return repeat(plan) if isinstance(plan, Plan) else plan

    return measure


def measure_rows(ctx: Context, names: list[str]) -> dict[str, RowResult]:
    """Every row asked for, in order; the rows of a group in ``IN_TURN`` are timed in turn."""
    results: dict[str, RowResult] = {}
    for name in names:
        if name in results:
            continue
        group = [n for n in next((g for g in IN_TURN if name in g), ()) if n in names]
        plans = [PLANS[n](ctx) for n in group] if len(group) > 1 else []
        if plans and all(isinstance(p, Plan) for p in plans):
            for result in in_turn(plans):  # type: ignore[arg-type]
                results[result.name] = result
        else:
            results[name] = ROWS[name](ctx)
    return results


ROWS: dict[str, Callable[[Context], RowResult]] = {
    "cst-j1": planned("cst-j1"),
    "cst-j2": planned("cst-j2"),
    "ast": row_ast,
    "rtl-cold-j1": planned("rtl-cold-j1"),
    "rtl-cold-j2": planned("rtl-cold-j2"),
    "rtl-warm": row_rtl_warm,
    "leaf-parse": planned("leaf-parse"),
    "rtl-leaf": planned("rtl-leaf"),
    "rtl-leaf-edit": planned("rtl-leaf-edit"),
    "rtl-hub": planned("rtl-hub"),
    "rtl-hub-edit": planned("rtl-hub-edit"),
    "ruff-all": row_ruff(select_all=True),
    "ruff-default": row_ruff(select_all=False),
    "flake8-j2": row_flake8,
    "jaxlint": row_jaxlint,
}


@dataclass(frozen=True)
class Target:
    what: str
    limit: str
    value: str
    holds: bool | None  # None: not measured in this run


def _get(results: dict[str, RowResult], name: str) -> RowResult | None:
    row = results.get(name)
    return row if row is not None and row.measured else None


def targets(results: dict[str, RowResult]) -> list[Target]:
    cst2 = _get(results, "cst-j2")
    cold2, cold1 = _get(results, "rtl-cold-j2"), _get(results, "rtl-cold-j1")
    warm, leaf = _get(results, "rtl-warm"), _get(results, "rtl-leaf")
    leaf_parse = _get(results, "leaf-parse")
    found: list[Target] = []

    def add(what: str, limit: str, value: float | None, ok: Callable[[float], bool], fmt: str):
        shown = "n/a" if value is None else format(value, fmt)
        found.append(Target(what, limit, shown, None if value is None else ok(value)))

    ratio = pair_ratio(cold2, cst2) if cold2 and cst2 else None
    add("cold -j2 / libcst parse-only at 2 processes", "≤ 1.2x", ratio, lambda v: v <= 1.2, ".2f")
    ratio = warm.wall / cold2.wall if warm and cold2 else None
    add("warm / cold -j2", "≤ 3 %", ratio and ratio * 100, lambda v: v <= 3.0, ".1f")
    extra = pair_difference(leaf, leaf_parse) if leaf and leaf_parse else None
    add("changed leaf (comment) - its own parse (s)", "≤ 1 s", extra, lambda v: v <= 1.0, ".2f")
    edited = _get(results, "rtl-leaf-edit")
    extra = pair_difference(edited, leaf_parse) if edited and leaf_parse else None
    add(
        "changed leaf (new function) - its own parse (s)", "≤ 1 s", extra, lambda v: v <= 1.0, ".2f"
    )
    speedup = pair_ratio(cold1, cold2) if cold1 and cold2 else None
    add("speed-up -j2 vs -j1 (cold)", "≥ 1.8x", speedup, lambda v: v >= 1.8, ".2f")
    rtl_rows = [r for n, r in results.items() if n.startswith("rtl-") and r.measured]
    peak = max((r.tree_peak for r in rtl_rows), default=None)
    add("peak memory of any retracelint run (MiB)", "≤ 1024", peak, lambda v: v <= 1024, ".0f")
    return found


def fmt_s(value: float) -> str:
    return f"{value:.3g}" if value < 10 else f"{value:.1f}"


def ratio_text(row: RowResult, base: RowResult | None) -> str:
    return f"{row.wall / base.wall:.3f}" if base else "-"


def results_table(results: dict[str, RowResult]) -> str:
    cst2, cst1 = _get(results, "cst-j2"), _get(results, "cst-j1")
    lines = [
        "| row | what | n | wall s median [min-max] | CPU s | x cst-j2 | x cst-j1 "
        "| max RSS MiB (1 proc) | peak MiB (tree) | run-queue wait s | others' CPU s | note |",
        "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in results.values():
        if not row.measured:
            lines.append(
                f"| {row.name} | {row.what} | 0 | {row.status} | | | | | | | | {row.note} |"
            )
            continue
        low, high = row.wall_range
        lines.append(
            f"| {row.name} | {row.what} | {len(row.samples)} "
            f"| **{fmt_s(row.wall)}** [{fmt_s(low)}-{fmt_s(high)}] | {fmt_s(row.cpu)} "
            f"| {ratio_text(row, cst2)} | {ratio_text(row, cst1)} "
            f"| {row.max_rss:.0f} | {row.tree_peak:.0f} "
            f"| {row.runqueue_wait:.2f} | {row.other_cpu:.2f} | {note(row)} |"
        )
    return "\n".join(lines)


def note(row: RowResult) -> str:
    rerun = f"{row.rerun} noisy run(s) redone" if row.rerun else ""
    return "; ".join(filter(None, [row.note, rerun]))


def ratios_text(results: dict[str, RowResult]) -> str:
    pairs = [
        ("libcst parse-only speed-up, 2 vs 1 process", "cst-j1", "cst-j2"),
        ("libcst parse-only / ast.parse (1 process)", "cst-j1", "ast"),
        ("retracelint cold speed-up, -j2 vs -j1", "rtl-cold-j1", "rtl-cold-j2"),
        ("retracelint warm / cold -j2", "rtl-warm", "rtl-cold-j2"),
        ("retracelint changed hub / warm", "rtl-hub", "rtl-warm"),
        ("flake8 -j2 / libcst parse-only -j2", "flake8-j2", "cst-j2"),
        ("libcst parse-only -j2 / ruff --select ALL", "cst-j2", "ruff-all"),
    ]
    lines = ["| ratio | value |", "|---|---:|"]
    for label, top, bottom in pairs:
        a, b = _get(results, top), _get(results, bottom)
        if a and b:
            how = " (timed in turn: median of the per-pair ratios)" if in_pairs(a, b) else ""
            lines.append(f"| {label}{how} | {pair_ratio(a, b):.2f} |")
        else:
            lines.append(f"| {label} | n/a |")
    return "\n".join(lines)


def targets_table(found: list[Target]) -> str:
    lines = ["| issue-6 target | limit | measured | holds |", "|---|---|---:|---|"]
    verdict = {True: "yes", False: "**no**", None: "not measured"}
    for t in found:
        lines.append(f"| {t.what} | {t.limit} | {t.value} | {verdict[t.holds]} |")
    return "\n".join(lines)


def jaxlint_table(packages: list[JaxlintPackage]) -> str:
    lines = [
        "| package | exit | wall s | diagnostics | what happened |",
        "|---|---:|---:|---:|---|",
    ]
    for p in packages:
        seen = f"crashed: {p.crash}" if p.crash else "ran to the end"
        lines.append(f"| {p.dist} | {p.returncode} | {p.wall_s:.2f} | {p.diagnostics} | {seen} |")
    return "\n".join(lines)


def machine() -> dict[str, str]:
    def cpu_model() -> str:
        try:
            for line in Path("/proc/cpuinfo").read_text().splitlines():
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
        except OSError:
            pass
        return platform.processor() or "unknown"

    def mem_total() -> str:
        try:
            kib = int(Path("/proc/meminfo").read_text().split()[1])
            return f"{kib / MIB:.1f} GiB"
        except (OSError, ValueError, IndexError):
            return "unknown"

    head = subprocess.run(
        ["git", "-C", str(REPO_ROOT), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
    )
    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": f"{os.cpu_count()} x {cpu_model()}",
        "memory": mem_total(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "libcst": _version("libcst"),
        "retracelint commit": head.stdout.strip() or "unknown",
    }


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


# ----------------------------------------------------------------------------- main


def selected_rows(only: str | None) -> list[str]:
    if not only:
        return list(ROWS)
    wanted: list[str] = []
    for name in (n.strip() for n in only.split(",") if n.strip()):
        for row in GROUPS.get(name, [name]):
            if row not in ROWS:
                raise SystemExit(
                    f"unknown row {row!r}; rows: {', '.join(ROWS)}; groups: parse, rtl, peers"
                )
            if row not in wanted:
                wanted.append(row)
    return [name for name in ROWS if name in wanted]  # always in the table's order


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=make_corpus.DEFAULT_CORPUS)
    parser.add_argument("--runs", type=int, default=3, help="timed runs per row (default 3)")
    parser.add_argument("--flake8-runs", type=int, help="runs for flake8 (default: --runs)")
    parser.add_argument("--only", help="comma-separated rows or groups (parse, rtl, peers)")
    parser.add_argument("--subset", type=int, default=1, help="every Nth file, for a quick run")
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=120.0,
        help="seconds to wait before each run for other work on the machine to stop (default 120)",
    )
    parser.add_argument(
        "--reruns",
        type=int,
        help="noisy runs (others used over a tenth of a core) redone per row (default: --runs)",
    )
    parser.add_argument(
        "--retracelint",
        metavar="CMD",
        help="command that runs retracelint (default: this checkout's retracelint.cli via python)",
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=Path(tempfile.gettempdir()) / "retracelint-bench",
        help="scratch directory outside any repository (default: TMPDIR/retracelint-bench)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    POLICY.quiet_wait_s = args.quiet_wait
    POLICY.max_reruns = args.reruns
    names = selected_rows(args.only)
    corpus = args.corpus.resolve()
    make_corpus.ensure_corpus(corpus)
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    tree = make_tree(corpus, work, max(1, args.subset))
    ctx = Context(tree, work, args.runs, args.flake8_runs or args.runs)
    if args.retracelint:
        ctx.retracelint = shlex.split(args.retracelint)
    if any(n.startswith("rtl-") for n in names):
        ctx.retracelint_missing = retracelint_missing(ctx.retracelint)
    if {"leaf-parse", "rtl-leaf", "rtl-leaf-edit", "rtl-hub", "rtl-hub-edit"} & set(names):
        pick_files(ctx)

    results = measure_rows(ctx, names)
    shutil.rmtree(ctx.cache_dir, ignore_errors=True)
    found = targets(results)
    print(report(args, ctx, results, found))
    if args.json:
        args.json.write_text(json.dumps(as_json(args, ctx, results, found), indent=1) + "\n")
    return 0


def corpus_line(ctx: Context, subset: int) -> str:
    files = sorted(ctx.tree.rglob("*.py"))
    data = [p.read_bytes() for p in files]
    lines = sum(d.count(b"\n") for d in data)
    size = sum(len(d) for d in data)
    which = "full corpus" if subset <= 1 else f"every {subset}th file of the corpus"
    return f"{which}: {len(files):,} files, {lines:,} lines, {size / 1e6:.1f} MB"


def report(args, ctx: Context, results: dict[str, RowResult], found: list[Target]) -> str:
    info = machine()
    parts = [
        "## retracelint benchmark",
        "",
        *(f"- {key}: {value}" for key, value in info.items()),
        f"- {corpus_line(ctx, args.subset)}",
        *(f"- {kind} file: {text}" for kind, text in ctx.picks_info.items()),
        "",
        results_table(results),
        "",
        ratios_text(results),
        "",
        targets_table(found),
    ]
    if ctx.jaxlint_packages:
        parts += ["", "jaxlint per package:", "", jaxlint_table(ctx.jaxlint_packages)]
    return "\n".join(parts)


def as_json(args, ctx: Context, results: dict[str, RowResult], found: list[Target]) -> dict:
    return {
        "machine": machine(),
        "corpus": corpus_line(ctx, args.subset),
        "runs": args.runs,
        "subset": args.subset,
        "picks": ctx.picks_info,
        "rows": [
            {**asdict(r), "median_wall_s": r.wall if r.measured else None} for r in results.values()
        ],
        "targets": [asdict(t) for t in found],
        "jaxlint_packages": [asdict(p) for p in ctx.jaxlint_packages],
    }


if __name__ == "__main__":
    sys.exit(main())
