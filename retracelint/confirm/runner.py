"""Run the user's command with the instrumentation loaded before any of its code.

The child gets a directory holding only a ``sitecustomize.py`` at the front of ``PYTHONPATH``;
Python's ``site`` module imports it at start-up, in every Python process the command starts
(``python -m pytest -n 2`` workers and multiprocessing children included). It loads
``runtime.py`` by path, so the child's interpreter needs jax but not retracelint, and then runs
any ``sitecustomize`` the environment already had. The command runs in its own process group so
that a timeout can stop all of it; its stdout and stderr are the terminal's.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

from retracelint.confirm import runtime as runtime_module
from retracelint.confirm.report import RunInfo

BOOT_DIR = str(Path(__file__).resolve().parent / "_boot")
RUNTIME_FILE = str(Path(runtime_module.__file__).resolve())
RUNTIME_ENV = "RETRACELINT_CONFIRM_RUNTIME"
MIN_JAX = (0, 10, 2)
INSTALL_HINT = "pip install 'retracelint[confirm]'"
# cpu stays listed after cuda: jax.debug.print/callback place their operands on a CPU device, and
# without one a program that uses them fails. cuda comes first, so it is the default device.
BACKENDS = {"cpu": "cpu", "gpu": "cuda,cpu", "auto": None}
# After a timeout: SIGTERM lets the instrumentation write its final counts; then SIGKILL.
TERM_GRACE_S = 5.0


def jax_version() -> str | None:
    try:
        return importlib.metadata.version("jax")
    except importlib.metadata.PackageNotFoundError:
        return None


def _version_tuple(version: str) -> tuple[int, ...]:
    parts = []
    for piece in version.split(".")[:3]:
        m = re.match(r"\d+", piece)
        parts.append(int(m.group(0)) if m else 0)
    return tuple(parts)


def check_jax(version: str | None = None) -> str | None:
    """An error message when this environment cannot run confirm, else None."""
    version = jax_version() if version is None else version
    if not version:
        return f"jax is not installed: {INSTALL_HINT}"
    if _version_tuple(version) < MIN_JAX:
        need = ".".join(map(str, MIN_JAX))
        return (
            f"needs jax >= {need} (jax.no_tracing, Jitted.trace), found jax {version}: "
            f"pip install -U 'jax>={need}'"
        )
    return None


def child_env(base: dict[str, str], plan_file: str, backend: str = "auto") -> dict[str, str]:
    env = dict(base)
    old = env.get("PYTHONPATH")
    env["PYTHONPATH"] = BOOT_DIR + (os.pathsep + old if old else "")
    env[runtime_module.PLAN_ENV] = plan_file
    env[RUNTIME_ENV] = RUNTIME_FILE
    platform = BACKENDS.get(backend)
    if platform:
        env["JAX_PLATFORMS"] = platform
    return env


def write_runtime_plan(plan: dict, path: str) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(plan, fh)


def _signal_name(num: int) -> str:
    try:
        return signal.Signals(num).name
    except ValueError:
        return f"signal {num}"


def _kill_group(proc: subprocess.Popen, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)


def run_command(
    command: list[str],
    env: dict[str, str],
    timeout: float | None = None,
    cwd: str | None = None,
) -> RunInfo:
    info = RunInfo(command=list(command))
    start = time.monotonic()
    try:
        proc = subprocess.Popen(command, env=env, cwd=cwd, start_new_session=True)
    except OSError as exc:
        info.error = f"{exc.strerror or exc}: {command[0]}"
        return info
    previous = _forward_termination()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        info.timed_out = True
        _stop(proc, signal.SIGTERM)
    except KeyboardInterrupt:
        # The child has its own process group, so the terminal's Ctrl-C reached only us.
        info.interrupted = True
        _stop(proc, signal.SIGINT)
    except _Terminated as exc:
        info.interrupted = True
        _stop(proc, exc.signum)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    info.duration = time.monotonic() - start
    code = proc.returncode
    if code is not None and code < 0:
        info.signal = _signal_name(-code)
    info.returncode = code
    return info


class _Terminated(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_terminated(signum: int, frame: object) -> None:
    raise _Terminated(signum)


def _forward_termination() -> dict[int, object]:
    """While the command runs, SIGTERM/SIGHUP to us stop it too (it has its own process group,
    so it would otherwise outlive us)."""
    previous: dict[int, object] = {}
    for signum in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(ValueError, OSError):  # not the main thread
            previous[signum] = signal.signal(signum, _raise_terminated)
    return previous


def _stop(proc: subprocess.Popen, first: int) -> None:
    _kill_group(proc, first)
    try:
        proc.wait(timeout=TERM_GRACE_S)
    except subprocess.TimeoutExpired:
        _kill_group(proc, signal.SIGKILL)
        proc.wait()
    except KeyboardInterrupt:
        _kill_group(proc, signal.SIGKILL)
        proc.wait()
    # Stragglers of the group (workers the command started) go too.
    _kill_group(proc, signal.SIGKILL)
