"""Time limits in the tests that load cannot break.

The suite runs where other jobs share the cores (2 cores, several test sessions): a test may wait
minutes for a CPU while its code does nothing wrong, so a wall-clock limit sized on an idle machine
fails there. What a test claims about the work a run takes is bounded in CPU time (``cpu_seconds``
in this process, ``cpu_limited`` for a child: the kernel counts only the time it ran); the wall
clock only stops a hang (a deadlock, a blocked read) at ``HANG_S``, which no honest run of any one
program in the suite comes near, however loaded the machine.
"""

from __future__ import annotations

import importlib.util
import sys
import time

HANG_S = 900.0

cpu_seconds = time.process_time  # this process's CPU time, all its threads

_LIMITED = (
    "import os, resource, sys; cpu, memory = map(int, sys.argv[1:3]);"
    " cpu > 0 and resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5));"
    " memory > 0 and resource.setrlimit(resource.RLIMIT_AS, (memory, memory));"
    " os.execv(sys.argv[3], sys.argv[3:])"
)


def cpu_limited(command: list[str], cpu_s: int = 0, memory: int = 0) -> list[str]:
    """``command`` (its first word an absolute path) run under a limit of ``cpu_s`` CPU seconds and
    ``memory`` bytes of address space (0: none), set by the child itself before it runs the command:
    a ``preexec_fn`` would fork this process, where jax's threads may run. Past the CPU limit the
    kernel stops it (SIGXCPU: status -24). Where there are no such limits (Windows), the command as it is.
    """
    if importlib.util.find_spec("resource") is None:
        return command
    return [sys.executable, "-I", "-c", _LIMITED, str(cpu_s), str(memory), *command]
