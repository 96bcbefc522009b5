"""Run small JAX programs and count how often each jitted function really re-traced.

Ground truth for tests: a program is run in a subprocess (``JAX_PLATFORMS=cpu``) with
``jax_explain_cache_misses`` on and a handler on the ``jax._src.interpreters.partial_eval`` logger. jax
0.10.2 logs one ``TRACING CACHE MISS`` record per real trace (a level-2 miss that re-runs the Python body;
dispatch-only misses such as numpy-vs-jax inputs log nothing), so counting records per function is exact:

* ``never seen function: f … defined at file:line`` is the first trace of a function object, not a
  re-trace, unless it carries the hint ``but seen another function defined on the same line``: then a new
  function object is being traced at a call site that already traced another one (``jax.jit(lambda …)``
  in a loop), which is a re-trace;
* ``for f defined at file:line … all previously seen cache keys differ`` is a re-trace.

Functions defined in jax or the standard library are never explained, so only user functions show up.

This file is also the runner: the subprocess executes it with ``--run``. Several programs can share one
subprocess (one jax import, ~1-2 s saved per program): each runs in a fresh ``__main__`` namespace and the
records logged while it runs are attributed to it. Programs sharing a subprocess must live in distinct
files (jax remembers call sites by file:line) and must not change global jax config.

Running them is almost all XLA compilation of tiny functions, which nothing here asserts about: it is
made cheaper without touching what is traced. LLVM's optimisations are off (``FAST_COMPILE_FLAGS``), and
the subprocesses one test process starts share a persistent compilation cache, so a program run again
(with more steps, or as a negative fixture) loads the executables its earlier run compiled. Tracing,
and so every ``TRACING CACHE MISS`` record, comes before the cache is looked up; the records are
byte-identical with and without either.
"""

from __future__ import annotations

import atexit
import functools
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from limits import HANG_S

RUNNER = Path(__file__).resolve()
SAME_LINE_HINT = "but seen another function defined on the same line"
# About 25 % less CPU per compile of these programs (measured on the fixtures), same traces.
FAST_COMPILE_FLAGS = "--xla_backend_optimization_level=0 --xla_llvm_disable_expensive_passes=true"

_NEVER_SEEN = re.compile(r"never seen function:\n\s+(?P<name>\S+) id=\d+(?P<src>[^\n]*)")
_SEEN_BEFORE = re.compile(r"^\s+for (?P<name>\S+)(?P<src>[^\n]*)$", re.MULTILINE)
_DEFINED_AT = re.compile(r" defined at (?P<file>.+?)(?::(?P<line>\d+))?$")
_CALLSITE = re.compile(r"^TRACING CACHE MISS at (?P<callsite>.*):$", re.MULTILINE)


@dataclass(frozen=True, order=True)
class TracedFunction:
    """A jitted Python function as jax names it: ``__name__`` plus where it is defined."""

    name: str
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.name} ({Path(self.file).name}:{self.line})"


@dataclass(frozen=True)
class TraceRecord:
    """One ``TRACING CACHE MISS`` log record, classified."""

    function: TracedFunction
    is_retrace: bool
    callsite: str
    message: str


@dataclass
class RetraceReport:
    """What one program did: its trace records and how it ended."""

    records: list[TraceRecord] = field(default_factory=list)
    raised: bool = False
    exception_type: str | None = None
    exception: str | None = None  # "ValueError: Non-hashable static arguments are not supported…"
    traceback: str | None = None
    timed_out: bool = False
    returncode: int = 0
    stderr: str = ""
    seconds: float = 0.0
    stdout: str = ""  # what the program printed

    @property
    def retraces(self) -> dict[TracedFunction, int]:
        """Real re-traces per function (functions traced only once are absent)."""
        counts: dict[TracedFunction, int] = {}
        for record in self.records:
            if record.is_retrace:
                counts[record.function] = counts.get(record.function, 0) + 1
        return counts

    @property
    def traces(self) -> dict[TracedFunction, int]:
        """All traces per function, the first one included."""
        counts: dict[TracedFunction, int] = {}
        for record in self.records:
            counts[record.function] = counts.get(record.function, 0) + 1
        return counts

    @property
    def total_retraces(self) -> int:
        return sum(self.retraces.values())

    def summary(self) -> str:
        """A short human-readable account, for assertion messages."""
        lines = [f"re-traces: {self.total_retraces}"]
        lines += [f"  {fun}: {n}" for fun, n in sorted(self.retraces.items())]
        if self.raised:
            lines.append(f"raised: {self.exception}")
        if self.timed_out:
            lines.append("timed out")
        for record in self.records:
            lines.append(("RETRACE " if record.is_retrace else "first   ") + record.message)
        if self.returncode and not self.raised:
            lines.append(f"exit code {self.returncode}; stderr tail:\n{self.stderr[-2000:]}")
        return "\n".join(lines)


def parse_record(message: str) -> TraceRecord | None:
    """Classify one explain-cache-misses message; None for text that is not one."""
    callsite_match = _CALLSITE.search(message)
    callsite = callsite_match.group("callsite") if callsite_match else ""
    match = _NEVER_SEEN.search(message)
    is_retrace = SAME_LINE_HINT in message
    if match is None:
        match = _SEEN_BEFORE.search(message)
        is_retrace = True
    if match is None:
        return None
    file, line = "", 0
    defined = _DEFINED_AT.search(match.group("src"))
    if defined:
        file = defined.group("file")
        line = int(defined.group("line") or 0)
    return TraceRecord(
        TracedFunction(match.group("name"), file, line), is_retrace, callsite, message
    )


def _report_from_json(data: dict) -> RetraceReport:
    records = [r for r in map(parse_record, data.get("messages", [])) if r is not None]
    return RetraceReport(
        records=records,
        raised=data.get("exception") is not None,
        exception_type=data.get("exception_type"),
        exception=data.get("exception"),
        traceback=data.get("traceback"),
        seconds=data.get("seconds", 0.0),
        stdout=data.get("stdout", ""),
    )


# Where the programs run: the CPU, unless RETRACELINT_VERIFY_PLATFORMS names other JAX platforms ("" for
# JAX's default, e.g. an accelerator: scripts/device_check.py's machine). The LLVM flags are the CPU's.
_PLATFORMS = os.environ.get("RETRACELINT_VERIFY_PLATFORMS", "cpu")


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("JAX_PLATFORMS", None)
    if _PLATFORMS:
        env["JAX_PLATFORMS"] = _PLATFORMS
    # A user's environment must not change what counts as a trace.
    for name in ("JAX_NO_TRACING", "JAX_DISABLE_JIT", "JAX_ENABLE_X64", "JAX_EXPLAIN_CACHE_MISSES"):
        env.pop(name, None)
    if _PLATFORMS == "cpu":
        env["XLA_FLAGS"] = f"{env.get('XLA_FLAGS', '')} {FAST_COMPILE_FLAGS}".strip()
    env["JAX_COMPILATION_CACHE_DIR"] = _compilation_cache()
    env["JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"] = "0"  # the programs' compiles all take less
    return env


@functools.cache
def _compilation_cache() -> str:
    """A folder for jax's persistent compilation cache, one per test process (an xdist worker runs its
    subprocesses one after another, so no two write it at once), removed when the process ends."""
    folder = tempfile.mkdtemp(prefix="retracelint-xla-cache-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def count_retraces_many(
    script_paths: Sequence[Path], cwd: Path, argv: Sequence[str] = ()
) -> list[RetraceReport]:
    """Run several programs one after another in ONE subprocess; one report per program, in order.

    Each program gets ``argv`` as its command-line arguments. The batch is stopped only when no program
    finishes for ``HANG_S`` (a hang: the batch as a whole takes what the machine's load makes it take).
    When the subprocess dies (hang, crash), the programs that finished keep their reports and the others
    get one that says what happened.
    """
    scripts = [str(Path(p).resolve()) for p in script_paths]
    with tempfile.TemporaryDirectory(prefix="retracelint-dyn-") as tmp:
        result_path = Path(tmp) / "result.jsonl"
        command = [sys.executable, str(RUNNER), "--run", str(result_path), json.dumps(list(argv))]
        command += scripts
        proc = subprocess.Popen(
            command,
            cwd=cwd,
            env=_environment(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        stderr, timed_out = _wait_while_progressing(proc, result_path)
        returncode = proc.returncode
        done: list[RetraceReport] = []
        if result_path.exists():
            for line in result_path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    done.append(_report_from_json(json.loads(line)))
    for report in done:
        report.returncode, report.stderr = returncode, stderr
    missing = [
        RetraceReport(
            raised=True,
            exception_type="RunnerDied",
            exception="hung" if timed_out else f"runner exited with code {returncode}",
            timed_out=timed_out,
            returncode=returncode,
            stderr=stderr,
        )
        for _ in scripts[len(done) :]
    ]
    return done + missing


def _wait_while_progressing(proc: subprocess.Popen[str], result_path: Path) -> tuple[str, bool]:
    """Wait for ``proc`` while it reports a program done (a line of ``result_path``) at least every
    ``HANG_S``; its standard error, and whether it was stopped."""
    finished = 0
    while True:
        try:
            return proc.communicate(timeout=HANG_S)[1], False
        except subprocess.TimeoutExpired:
            now = len(result_path.read_bytes().splitlines()) if result_path.exists() else 0
            if now == finished:
                proc.kill()
                return proc.communicate()[1], True
            finished = now


def count_retraces(script_path: Path, cwd: Path) -> RetraceReport:
    """Run one Python program in a subprocess and report its real re-traces per jitted function."""
    return count_retraces_many([script_path], cwd)[0]


# --------------------------------------------------------------------------------------------------
# The runner side: executed in the subprocess, imports jax once, runs each program in turn.


def _run_programs(result_path: str, argv: list[str], scripts: list[str]) -> None:
    import contextlib
    import io
    import runpy
    import time
    import traceback

    import jax

    class _Capture(logging.Handler):
        def __init__(self) -> None:
            super().__init__(logging.DEBUG)
            self.messages: list[str] = []

        def emit(self, record: logging.LogRecord) -> None:
            message = record.getMessage()
            if message.startswith("TRACING CACHE MISS"):
                self.messages.append(message)

    capture = _Capture()
    logger = logging.getLogger("jax._src.interpreters.partial_eval")
    logger.addHandler(capture)
    logger.setLevel(logging.WARNING)
    logger.propagate = False  # keep the runner's stderr readable
    # With the cache-miss log on, jax also logs every persistent-cache miss and write as a warning.
    for name in ("jax._src.compiler", "jax._src.compilation_cache"):
        logging.getLogger(name).addFilter(_not_about_the_persistent_cache)
    # Global (not the thread-local context manager) so that programs using threads are covered too.
    jax.config.update("jax_explain_cache_misses", True)

    original_argv, original_path = list(sys.argv), list(sys.path)
    with open(result_path, "w", encoding="utf-8") as out:
        for script in scripts:
            capture.messages = []
            outcome: dict[str, object] = {"script": script, "exception": None}
            sys.argv = [script, *argv]
            sys.path[:] = [str(Path(script).parent), *original_path[1:]]
            start = time.perf_counter()
            printed = io.StringIO()
            try:
                with contextlib.redirect_stdout(printed):
                    runpy.run_path(script, run_name="__main__")
            except SystemExit as exc:
                if exc.code not in (None, 0):
                    outcome["exception_type"] = "SystemExit"
                    outcome["exception"] = f"SystemExit: {exc.code}"
            except BaseException as exc:  # the program's own failure is data here
                outcome["exception_type"] = type(exc).__name__
                outcome["exception"] = f"{type(exc).__name__}: {exc}"
                outcome["traceback"] = traceback.format_exc()
            outcome["seconds"] = time.perf_counter() - start
            outcome["stdout"] = printed.getvalue()
            outcome["messages"] = list(capture.messages)
            out.write(json.dumps(outcome) + "\n")
            out.flush()
            _forget_modules_under(Path(script).parent)
    sys.argv, sys.path[:] = original_argv, original_path


def _not_about_the_persistent_cache(record: logging.LogRecord) -> bool:
    return "persistent" not in record.getMessage().lower()


def _forget_modules_under(folder: Path) -> None:
    """Drop the modules a program imported from its own folder.

    Programs that share a subprocess may each have a sibling module of the same name (``model.py``); without
    this, the second program would be handed the first one's module from ``sys.modules``.
    """
    prefix = os.path.join(str(folder), "")
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.startswith(prefix):
            del sys.modules[name]


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "--run":
        _run_programs(sys.argv[2], json.loads(sys.argv[3]), sys.argv[4:])
    else:
        sys.exit(f"usage: {sys.argv[0]} --run RESULT.jsonl ARGV.json SCRIPT.py...")


def run_fixed_and_original(
    project: Path, fix: Callable[[], object], copies: Path
) -> tuple[RetraceReport, RetraceReport]:
    """``project``'s ``main.py`` after ``fix()`` has rewritten the project, and a copy of it from
    before (in ``copies``), run in one subprocess (one jax import): the fixed one first, so that its
    traces are those it makes alone; compare their ``stdout`` to see that the fix kept what it prints."""
    original = Path(shutil.copytree(project, copies / "original"))
    fix()
    fixed, before = count_retraces_many([project / "main.py", original / "main.py"], cwd=project)
    return fixed, before
