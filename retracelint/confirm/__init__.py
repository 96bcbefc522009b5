"""Dynamic confirmation: run the user's program and prove which findings really re-trace.

* :mod:`.plan` turns static findings into the jit sites to watch, and the calls on their routes;
* :mod:`.runtime` observes JAX's trace-cache misses inside the program (standard library and jax
  only);
* :mod:`.runner` starts the command with the instrumentation loaded before any user code;
* :mod:`.report` turns the events into a status per finding and prints them;
* :mod:`.cli` is the ``retracelint confirm`` click command (``confirm_command``).
"""

from retracelint.confirm.plan import (
    Plan,
    PlannedFinding,
    PlanSite,
    build_plan,
    load_plan,
    plan_from_json,
)

__all__ = ["Plan", "PlanSite", "PlannedFinding", "build_plan", "load_plan", "plan_from_json"]
