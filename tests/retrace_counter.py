"""Run one Python program with JAX's cache-miss explanations on; write its traces as JSON.

    python tests/retrace_counter.py [--calls NAME,...] OUT.json SCRIPT.py [ARGS...]

The program runs as ``__main__`` (through runpy, its own directory first on sys.path) after a
handler is installed on the ``jax._src.interpreters.partial_eval`` logger and
``jax_explain_cache_misses`` is turned on, so every real trace of a user-defined jitted function is
logged as one ``TRACING CACHE MISS`` record. ``dynamic_support.parse_record`` classifies each record
(first trace or re-trace). The program's stdout and stderr are left alone for the caller to check.

OUT.json holds ``{"traces": [{"name", "file", "line", "traces", "retraces", "reasons"}...],
"exception": str | null, "seconds": float}``; it is written even when the program raises. With
``--calls``, it also holds ``"calls": [{"name", "file", "calls"}...]``: how often the Python body of
each function so named in the program's folder ran, traced or not (a jitted function's body that ran
more often than it traced also ran unjitted).
"""

from __future__ import annotations

import json
import logging
import os
import runpy
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from types import FrameType


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith("TRACING CACHE MISS"):
            self.messages.append(message)


def _reason(message: str) -> str:
    """The explanation part of a record, without the call-site and function header lines."""
    lines = message.splitlines()[1:]
    return "\n".join(line for line in lines if not line.lstrip().startswith("for "))[:500]


def summarise(messages: list[str]) -> list[dict]:
    """One entry per traced function, in order of first trace."""
    # One classifier for the whole test suite; imported here, as this file also runs as a script.
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from dynamic_support import parse_record

    by_function: dict[tuple[str, str, int], dict] = {}
    for message in messages:
        record = parse_record(message)
        if record is None:
            continue
        fun = record.function
        entry = by_function.setdefault(
            (fun.name, fun.file, fun.line),
            {"name": fun.name, "file": fun.file, "line": fun.line, "traces": 0, "retraces": 0},
        )
        entry["traces"] += 1
        if record.is_retrace:
            entry["retraces"] += 1
            entry.setdefault("reasons", []).append(
                {"callsite": record.callsite, "why": _reason(message)}
            )
    return list(by_function.values())


def count_calls(names: frozenset[str], folder: str) -> Counter[tuple[str, str]]:
    """From now on, count the calls of the functions named ``names`` defined under ``folder``."""
    counts: Counter[tuple[str, str]] = Counter()
    prefix = os.path.join(folder, "")

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        code = frame.f_code
        if event == "call" and code.co_name in names and code.co_filename.startswith(prefix):
            counts[(code.co_name, code.co_filename)] += 1

    sys.setprofile(profile)
    return counts


def main(argv: list[str]) -> int:
    names: frozenset[str] = frozenset()
    if argv[:1] == ["--calls"] and len(argv) > 1:
        names, argv = frozenset(filter(None, argv[1].split(","))), argv[2:]
    if len(argv) < 2:
        print(
            f"usage: {Path(__file__).name} [--calls NAME,...] OUT.json SCRIPT.py [ARGS...]",
            file=sys.stderr,
        )
        return 2
    out_path, script = Path(argv[0]), str(Path(argv[1]).resolve())

    import jax

    capture = _Capture()
    logger = logging.getLogger("jax._src.interpreters.partial_eval")
    logger.addHandler(capture)
    logger.setLevel(logging.WARNING)
    logger.propagate = False  # the program's stderr stays its own
    jax.config.update("jax_explain_cache_misses", True)

    sys.argv = [script, *argv[2:]]
    sys.path[0] = str(Path(script).parent)
    exception = None
    calls = count_calls(names, str(Path(script).parent)) if names else Counter()
    start = time.perf_counter()
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as exc:
        if exc.code not in (None, 0):
            exception = f"SystemExit: {exc.code}"
    except Exception as exc:  # the program's failure is reported, not hidden
        exception = f"{type(exc).__name__}: {exc}"
        traceback.print_exc()
    seconds = time.perf_counter() - start
    sys.setprofile(None)
    result = {"traces": summarise(capture.messages), "exception": exception, "seconds": seconds}
    if names:
        result["calls"] = [{"name": n, "file": f, "calls": c} for (n, f), c in calls.items()]
    out_path.write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 1 if exception else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
