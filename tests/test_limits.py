"""The suite's time limits cannot be broken by load (tests/limits.py): what a child does is bounded in
CPU time, which waiting for a core does not use up, and no test sets a wall-clock limit of its own."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from limits import HANG_S, cpu_limited

TESTS = Path(__file__).parent

needs_rlimit = pytest.mark.skipif(sys.platform == "win32", reason="needs resource limits")


@needs_rlimit
def test_waiting_does_not_use_up_a_cpu_limit() -> None:
    sleeper = [sys.executable, "-c", "import time; time.sleep(2.5); print('done')"]
    done = subprocess.run(cpu_limited(sleeper, cpu_s=1), capture_output=True, timeout=HANG_S)
    assert (done.returncode, done.stdout) == (0, b"done\n")


@needs_rlimit
def test_work_past_a_cpu_limit_is_stopped() -> None:
    spinner = [sys.executable, "-c", "while True: pass"]
    done = subprocess.run(cpu_limited(spinner, cpu_s=1), capture_output=True, timeout=HANG_S)
    assert done.returncode == -signal.SIGXCPU


# A number of seconds as a subprocess or communicate limit, compared with a wall-clock difference,
# or an asyncio wait bounded by anything but HANG_S (a wait for a server's answer that load can outlast).
_WALL_LIMIT = re.compile(
    r"\btimeout=\d|monotonic\(\) - \w+ <|time\(\) - \w+ <|perf_counter\(\) - \w+ <"
    r"|wait_for\(.*, (?!HANG_S\b)[\w.]+\)"
)


def test_no_test_sets_a_wall_clock_limit_of_its_own() -> None:
    offenders = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(TESTS.glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if _WALL_LIMIT.search(line)
    ]
    assert offenders == []
