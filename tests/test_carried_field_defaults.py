"""Carried state that starts as a dataclass field's default that is no literal (issue 39):
``field(default_factory=lambda: jnp.zeros((), dtype))`` is the field's first value, in the dtype it
names. Each project re-traces under jax 0.10.2 (two traces of the step, ``_cache_size()``) and its
fixed twin, one dtype away, traces once; the finding points at the default."""

from __future__ import annotations

from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse


def _where(root: Path, files: dict[str, str]) -> list[tuple[str, int, str, str]]:
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    findings = analyse([str(root)], Settings(cache=False, select=("RTL",))).findings
    return [(Path(f.location.path).name, f.location.line, f.code, f.message) for f in findings]


# The object is made where the state is read (``Tracker().level``): no parameter in between.
TRACKER = {
    "main.py": """\
import jax.numpy as jnp
import numpy as np

from state import Tracker
from step import smooth


def follow(readings):
    tracker = Tracker()
    level = tracker.level
    for r in readings:
        level = smooth(level, jnp.asarray(r.mean(), jnp.float32))
    return level


if __name__ == "__main__":
    print(follow(np.random.default_rng(0).normal(size=(4, 8))), smooth._cache_size())
""",
    "state.py": '''\
"""The running statistics of a sensor, kept in half precision to save memory."""

from dataclasses import dataclass, field

import jax
import jax.numpy as jnp


@dataclass
class Tracker:
    decay: float = 0.9
    level: jax.Array = field(default_factory=lambda: jnp.zeros((), jnp.bfloat16))
''',
    "step.py": '''\
"""One smoothing step of the sensor's level."""

import jax


@jax.jit
def smooth(level, reading):
    return 0.9 * level + 0.1 * reading
''',
}

# The object is passed in (``simulate(Clock(), 3)``), x64 turned on by the script that runs.
CLOCK = {
    "clock.py": '''\
"""The clock of a simulation: its start time and its step."""

from dataclasses import dataclass, field

import jax
import jax.numpy as jnp


@dataclass
class Clock:
    step: float = 1e-3
    start: jax.Array = field(default_factory=lambda: jnp.zeros((), jnp.float32))
''',
    "main.py": """\
import jax

jax.config.update("jax_enable_x64", True)

from clock import Clock  # noqa: E402
from sim import advance, simulate  # noqa: E402

if __name__ == "__main__":
    print(simulate(Clock(), 3), advance._cache_size())
""",
    "sim.py": '''\
"""Advance the simulation clock in double precision."""

import jax
import jax.numpy as jnp


@jax.jit
def advance(t, dt):
    return t + dt


def simulate(clock, steps):
    t = clock.start
    dt = jnp.asarray(clock.step, jnp.float64)
    for _ in range(steps):
        t = advance(t, dt)
    return t
''',
}


def _fixed(files: dict[str, str], old: str, new: str) -> dict[str, str]:
    changed = {name: text.replace(old, new) for name, text in files.items()}
    assert changed != files
    return changed


def test_default_factory_of_an_object_made_here_is_the_carried_start(tmp_path: Path) -> None:
    [(name, line, code, message)] = _where(tmp_path, TRACKER)
    assert (name, line, code) == ("state.py", 12, "RTL402")
    assert message.startswith(
        "level starts as bfloat16 here and is float32 once smooth() returns it"
    )


def test_default_factory_in_the_step_s_dtype_is_clean(tmp_path: Path) -> None:
    assert _where(tmp_path, _fixed(TRACKER, "jnp.bfloat16", "jnp.float32")) == []


def test_default_factory_of_a_passed_object_under_x64(tmp_path: Path) -> None:
    [(name, line, code, message)] = _where(tmp_path, CLOCK)
    assert (name, line, code) == ("clock.py", 12, "RTL402")
    assert message.startswith("t starts as float32 here and is float64 once advance() returns it")


def test_default_factory_in_the_default_float_under_x64_is_clean(tmp_path: Path) -> None:
    fixed = _fixed(CLOCK, "jnp.zeros((), jnp.float32)", "jnp.zeros((), jnp.float64)")
    assert _where(tmp_path, fixed) == []


def test_default_given_by_the_call_replaces_the_factory(tmp_path: Path) -> None:
    """``Clock(start=...)`` in the step's dtype: the default never runs."""
    given = _fixed(
        CLOCK, "simulate(Clock(), 3)", "simulate(Clock(start=jnp.zeros((), jnp.float64)), 3)"
    )
    given["main.py"] = given["main.py"].replace(
        "import jax\n", "import jax\nimport jax.numpy as jnp\n", 1
    )
    assert _where(tmp_path, given) == []
