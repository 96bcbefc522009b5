"""Run small JAX programs and count how often each jitted function really re-traced.

Ground truth for tests: a program is run in a process of its own (``JAX_PLATFORMS=cpu``) with
``jax_explain_cache_misses`` on and a handler on the ``jax._src.interpreters.partial_eval`` logger. jax
0.10.2 logs one ``TRACING CACHE MISS`` record per real trace (a level-2 miss that re-runs the Python body;
dispatch-only misses such as numpy-vs-jax inputs log nothing), so counting records per function is exact:

* ``never seen function: f … defined at file:line`` is the first trace of a function object, not a
  re-trace, unless it carries the hint ``but seen another function defined on the same line``: then a new
  function object is being traced at a call site that already traced another one (``jax.jit(lambda …)``
  in a loop), which is a re-trace;
* ``for f defined at file:line … all previously seen cache keys differ`` is a re-trace.

Functions defined in jax or the standard library are never explained, so only user functions show up.

This file is also the runner: a subprocess runs it with ``--serve``, imports jax once and forks a child per
call of ``count_retraces_many`` (``_ForkServer``). Several programs can share one child (one backend
start): each runs in a fresh ``__main__`` namespace, its own modules forgotten after it, jax's caches
cleared after it where a module that may hold a jitted function stays imported (``jax.clear_caches``,
``_user_code_stays``), and the records logged while it runs are attributed to it. Programs sharing a
child must live in distinct files (jax remembers call sites by file:line) and must not change global
jax config.

Running them is almost all XLA compilation of tiny functions, which nothing here asserts about: it is
made cheaper without touching what is traced. LLVM's optimisations are off (``FAST_COMPILE_FLAGS``;
XLA's fusion emitters too where only the traces count, ``COUNT_ONLY_FLAGS``), and the children of one test process's runner share a persistent compilation
cache, so a program run again (with more steps, or as a negative fixture) loads the executables its
earlier run compiled. Tracing, and so every ``TRACING CACHE MISS`` record, comes before the cache is
looked up; the records are byte-identical with and without either.
"""

from __future__ import annotations

import atexit
import functools
import json
import logging
import os
import re
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from limits import HANG_S

RUNNER = Path(__file__).resolve()
SAME_LINE_HINT = "but seen another function defined on the same line"
# About 25 % less CPU per compile of these programs (measured on the fixtures), same traces.
FAST_COMPILE_FLAGS = "--xla_backend_optimization_level=0 --xla_llvm_disable_expensive_passes=true"
# Only for runs whose printed values no test compares (``counts_only``): XLA's older loop emitters
# instead of its MLIR fusion emitters take about 30 % less CPU again (a batch of 62 fixtures at 4 steps,
# compiles included: 46.0 -> 33.7 s; of 61: 46.0 -> 28.9 s) with byte-identical trace records, but may
# round a float's last digit otherwise in two programs that compute one value in different ways (a
# fixed loop against the original, tests/test_fix_static_loops.py). The older emitters' LLVM code
# is then built as one module, not split into parts compiled in parallel, each with a codegen
# setup of its own (no core to spare on the test machine): 5 to 15 % less CPU again (at 4 steps,
# the first 15 fixtures of batch 1: 4.9 -> 4.1 s, the first 25 of batch 2: 12.95 -> 12.1 s; with
# the fusion emitters on it saves nothing: 11.4 -> 11.4 s). How code is built, not what it computes.
COUNT_ONLY_FLAGS = "--xla_cpu_use_fusion_emitters=false --xla_cpu_parallel_codegen_split_count=1"

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


def _environment(counts_only: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("JAX_PLATFORMS", None)
    if _PLATFORMS:
        env["JAX_PLATFORMS"] = _PLATFORMS
    # A user's environment must not change what counts as a trace.
    for name in ("JAX_NO_TRACING", "JAX_DISABLE_JIT", "JAX_ENABLE_X64", "JAX_EXPLAIN_CACHE_MISSES"):
        env.pop(name, None)
    # pytest names the running test there: kept, it made every test a runner of its own (the
    # runners are kept by environment, ``_fork_server``), each importing jax again (2 s of CPU).
    env.pop("PYTEST_CURRENT_TEST", None)
    if _PLATFORMS == "cpu":
        flags = f"{FAST_COMPILE_FLAGS} {COUNT_ONLY_FLAGS}" if counts_only else FAST_COMPILE_FLAGS
        env["XLA_FLAGS"] = f"{env.get('XLA_FLAGS', '')} {flags}".strip()
    env["JAX_COMPILATION_CACHE_DIR"] = _compilation_cache()
    env["JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"] = "0"  # the programs' compiles all take less
    return env


@functools.cache
def _compilation_cache() -> str:
    """A folder for jax's persistent compilation cache, one per test process (its runner runs one child at
    a time, so no two write it at once), removed when the process ends."""
    folder = tempfile.mkdtemp(prefix="retracelint-xla-cache-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def compiled_executables() -> dict[str, str]:
    """The environment in which another jax process loads the executables this process's runner
    children have compiled (jax's persistent compilation cache) and writes none, so that processes
    started side by side never write one entry at once. Its keys are the runs' where its XLA_FLAGS
    hold ``FAST_COMPILE_FLAGS`` alone, as the runs without ``counts_only`` do; a miss only compiles.
    Tracing, and all that a re-trace check or confirm sees, comes before the cache is looked up."""
    return {
        "JAX_COMPILATION_CACHE_DIR": _compilation_cache(),
        # jax writes an entry only for a compile that took at least this long: never.
        "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": str(10**9),
    }


def count_retraces_many(
    script_paths: Sequence[Path], cwd: Path, argv: Sequence[str] = (), *, counts_only: bool = False
) -> list[RetraceReport]:
    """Run several programs one after another in ONE process; one report per program, in order.

    The process is a fork of this test process's runner (``_ForkServer``): a fresh interpreter that has
    imported jax, with no backend yet, as a subprocess of its own would be after ``import jax``. Each
    program gets ``argv`` as its command-line arguments. The batch is stopped only when no program
    finishes for ``HANG_S`` (a hang: the batch as a whole takes what the machine's load makes it take).
    When the process dies (hang, crash), the programs that finished keep their reports and the others
    get one that says what happened. ``counts_only``: no test compares what the programs print, so
    they compile with ``COUNT_ONLY_FLAGS`` too (in a runner of their own: the flags are its
    environment's).
    """
    scripts = [str(Path(p).resolve()) for p in script_paths]
    with tempfile.TemporaryDirectory(prefix="retracelint-dyn-") as tmp:
        result_path, stderr_path = Path(tmp) / "result.jsonl", Path(tmp) / "stderr.txt"
        request = {
            "result": str(result_path),
            "stderr": str(stderr_path),
            "cwd": str(Path(cwd).resolve()),
            "argv": list(argv),
            "scripts": scripts,
        }
        returncode, timed_out = _fork_server(_environment(counts_only)).run(request, result_path)
        stderr = (
            stderr_path.read_text(encoding="utf-8", errors="replace")
            if stderr_path.exists()
            else ""
        )
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


_SERVERS: dict[tuple[tuple[str, str], ...], _ForkServer] = {}


def _fork_server(env: dict[str, str]) -> _ForkServer:
    """The runner for ``env``: one per test process and environment, stopped when the process ends."""
    key = tuple(sorted(env.items()))
    server = _SERVERS.get(key)
    if server is None or server.proc.poll() is not None:
        server = _SERVERS[key] = _ForkServer(env)
        _STARTED.append(server)
        atexit.register(server.stop)
    return server


_STARTED: list[_ForkServer] = []


def runner_cpu_seconds() -> float:
    """The CPU the runners this process started, and their children, have used so far."""
    return sum(server.children_cpu + server.own_cpu for server in _STARTED)


class _ForkServer:
    """The runner (this file with ``--serve``): it imports jax once, then forks one child per batch of
    programs, so a batch pays no interpreter start and no jax import (about 2 s of CPU each).

    Forking is safe there: jax has imported but started no backend (no thread of its own, no at-fork
    warning; NumPy's BLAS threads are made fork-safe by BLAS itself); each child starts its backend, its trace caches and jax's record of the functions it has
    seen from nothing, as a new process would. Requests and replies are lines on the runner's standard
    input and output: a request's JSON; the child's pid; when the child has ended, its exit code.
    """

    def __init__(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(RUNNER), "--serve"],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
        )
        self.lock = threading.Lock()
        self.pending = b""
        # CPU seconds of the children so far and of the runner itself: not in this process's
        # RUSAGE_CHILDREN until the runner ends (tests/cpu_profile.py adds them per test).
        self.children_cpu = self.own_cpu = 0.0

    def run(self, request: dict, result_path: Path) -> tuple[int, bool]:
        """Run one request; the child's exit code and whether it was stopped, which happens only when
        it reports no program done (a line of ``result_path``) for ``HANG_S``."""
        with self.lock:
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
            pid = int(self._reply(None)[0])
            finished, timed_out = 0, False
            while True:
                try:
                    code, child_cpu, own_cpu = self._reply(HANG_S)
                except TimeoutError:
                    now = len(result_path.read_bytes().splitlines()) if result_path.exists() else 0
                    if now == finished and not timed_out:
                        os.kill(pid, signal.SIGKILL)
                        timed_out = True
                    finished = now
                    continue
                self.children_cpu += child_cpu
                self.own_cpu = own_cpu
                return int(code), timed_out

    def _reply(self, timeout: float | None) -> list[float]:
        """The numbers on the runner's next reply line; TimeoutError when none came within
        ``timeout`` seconds."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.pending:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                raise TimeoutError
            chunk = os.read(fd, 4096)
            if not chunk:  # the runner itself, not a program, has failed: its stderr is the tests'
                raise RuntimeError(f"the retrace runner ended (exit code {self.proc.wait()})")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return [float(word) for word in line.split()]

    def stop(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=HANG_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def count_retraces(script_path: Path, cwd: Path) -> RetraceReport:
    """Run one Python program in a process of its own and report its real re-traces per jitted
    function."""
    return count_retraces_many([script_path], cwd)[0]


# --------------------------------------------------------------------------------------------------
# The runner side: the server imports jax once; each child runs its programs in turn.


def _run_programs(result_path: str, argv: list[str], scripts: list[str]) -> None:
    import contextlib
    import io
    import runpy
    import time
    import traceback

    import jax
    from jax._src.interpreters import partial_eval

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
    imported_before = set(sys.modules)
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
            # A library's module stays imported for the next program, and with it its jitted
            # functions' caches: what this program traced, the next would not trace again. Where
            # no such module stays (the program's own modules are forgotten, jax's and the
            # standard library's functions are never explained), the next program's functions are
            # new objects that no cache holds, and jax's own helpers keep what they compiled:
            # clearing them costs every program about 15 % more CPU (compiling jnp's helpers
            # again) and changes no record. jax's set of call sites that missed its cache goes
            # either way, as in a new process: kept, a jax helper traced again after a clear (no
            # file, no call site) reads as a re-trace.
            if _user_code_stays(imported_before):
                jax.clear_caches()
            partial_eval.callsites_with_tracing_cache_miss.clear()
    sys.argv, sys.path[:] = original_argv, original_path


def _user_code_stays(imported_before: set[str]) -> bool:
    """Whether a module the programs imported is still imported and may hold a function jax
    explains: any with a file (or, a namespace package, a folder) that is neither jax's nor the
    standard library's, as jax tells them, nor jaxlib's or NumPy's (they never import jax: no
    jitted function in them). A library beside the programs, an installed one such as flax: any
    such module, whatever it holds, and any other module that has no file and is not built in."""
    import jaxlib
    import numpy
    from jax._src import source_info_util

    never_jax = tuple(
        os.path.join(os.path.dirname(os.path.realpath(package.__file__)), "")
        for package in (jaxlib, numpy)
    )

    def jax_or_stdlib(path: object) -> bool:
        if not isinstance(path, str):
            return False
        real = os.path.realpath(path)
        return real.startswith(never_jax) or not source_info_util.is_user_filename(real)

    for name in set(sys.modules) - imported_before:
        if name in sys.builtin_module_names:
            continue
        module = sys.modules[name]
        file = getattr(module, "__file__", None)
        places = [file] if file is not None else list(getattr(module, "__path__", None) or [None])
        if not all(map(jax_or_stdlib, places)):
            return True
    return False


def _not_about_the_persistent_cache(record: logging.LogRecord) -> bool:
    return "persistent" not in record.getMessage().lower()


def _forget_modules_under(folder: Path) -> None:
    """Drop the modules a program imported from its own folder.

    Programs that share a process may each have a sibling module of the same name (``model.py``); without
    this, the second program would be handed the first one's module from ``sys.modules``.
    """
    prefix = os.path.join(str(folder), "")
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.startswith(prefix):
            del sys.modules[name]


def _serve() -> None:
    """The runner's loop: one child per request line on standard input, until it closes."""
    import jax  # noqa: F401  (imported once, here, for every child; its backend starts in each child)

    replies = sys.stdout.buffer
    for line in sys.stdin.buffer:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(request)
        replies.write(b"%d\n" % pid)
        replies.flush()
        _, status, usage = os.wait4(pid, 0)
        own = resource.getrusage(resource.RUSAGE_SELF)
        cpu = usage.ru_utime + usage.ru_stime, own.ru_utime + own.ru_stime
        replies.write(b"%d %.3f %.3f\n" % (os.waitstatus_to_exitcode(status), *cpu))
        replies.flush()


def _child(request: dict) -> NoReturn:
    """Run one request's programs in this forked child, its standard error to the request's file,
    and end the child (never returning into the runner's loop)."""
    code = 1
    try:
        null = os.open(os.devnull, os.O_RDWR)
        err = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(null, 0)
        os.dup2(null, 1)  # the runner's replies: nothing of the child's may land there
        os.dup2(err, 2)
        os.chdir(request["cwd"])
        sys.dont_write_bytecode = True  # the programs run in the source tree (fixtures, examples)
        _run_programs(request["result"], request["argv"], request["scripts"])
        code = 0
    except BaseException:  # the runner's own failure: its stderr says why
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        _serve()
    else:
        sys.exit(f"usage: {sys.argv[0]} --serve  (requests on standard input)")


def run_fixed_and_original(
    project: Path, fix: Callable[[], object], copies: Path
) -> tuple[RetraceReport, RetraceReport]:
    """``project``'s ``main.py`` after ``fix()`` has rewritten the project, and a copy of it from
    before (in ``copies``), run in one process (one backend start): the fixed one first, so that its
    traces are those it makes alone; compare their ``stdout`` to see that the fix kept what it prints."""
    original = Path(shutil.copytree(project, copies / "original"))
    fix()
    fixed, before = count_retraces_many([project / "main.py", original / "main.py"], cwd=project)
    return fixed, before
