"""Run one Python program with JAX's cache-miss explanations on; write its traces as JSON.

    python tests/retrace_counter.py OUT.json SCRIPT.py [ARGS...]

The program runs as ``__main__`` (through runpy, its own directory first on sys.path) after a
handler is installed on the ``jax._src.interpreters.partial_eval`` logger and
``jax_explain_cache_misses`` is turned on, so every real trace of a user-defined jitted function is
logged as one ``TRACING CACHE MISS`` record. ``dynamic_support.parse_record`` classifies each record
(first trace or re-trace). The program's stdout and stderr are left alone for the caller to check.

OUT.json holds ``{"traces": [{"name", "file", "line", "traces", "retraces", "reasons"}...],
"exception": str | null, "seconds": float}``; it is written even when the program raises.
"""

from __future__ import annotations

import json
import logging
import runpy
import sys
import time
import traceback
from pathlib import Path


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


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(f"usage: {Path(__file__).name} OUT.json SCRIPT.py [ARGS...]", file=sys.stderr)
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
    result = {"traces": summarise(capture.messages), "exception": exception, "seconds": seconds}
    out_path.write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 1 if exception else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
