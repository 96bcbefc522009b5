"""What a jitted step gives back when jax decides its dtype, weak type or structure inside it (issue
39), against what the carried state starts as, on projects split over modules: a default-dtype
constructor (``jnp.linspace``: float64 under x64) promoting a float32 state (``Value.floor``), a
mask's ``.sum()`` making a weak count strong, a state unpacked from what a reset method returns
(``_, state = sim.start(key)``), an info dict given back with a key its reset lacks
(``{**state.info, "cost": cost}``), float16 buffers made by a ``tree_map`` handed back float32 and a
field that starts None and comes back a reduction (``frame.mean()``).
Each positive re-traces under jax (counted by ``dynamic_support``, in a subprocess) and is found
where the flip is made; its fixed twin, one change away, traces once and is not flagged; the x64
project run without x64 traces once too and is not flagged."""

from __future__ import annotations

import importlib.util
from collections.abc import Container
from pathlib import Path

import pytest
from dynamic_support import count_retraces_many

from retracelint.config import Settings
from retracelint.engine import analyse

needs_jax = pytest.mark.skipif(
    importlib.util.find_spec("jax") is None, reason="jax is not installed"
)

# A float32 rod relaxed toward a tapered profile; the taper comes from jnp.linspace, float64 when the
# script turns x64 on, so the rod comes back float64 and the second call traces again.
HEAT = {
    "profiles.py": '''\
"""Boundary profiles for the rod model."""

import jax.numpy as jnp


def toward_taper(field, rate, dtype=None):
    """Relax ``field`` toward a ramp from the cold end (0) to the hot end (1)."""
    target = jnp.linspace(0.0, 1.0, field.shape[0]@DTYPE@)
    return field + rate * (target - field)
''',
    "rod.py": '''\
"""One relaxation step of a heated rod."""

import jax
import jax.numpy as jnp

from profiles import toward_taper


@jax.jit
def relax(field, rate):
    # Heat spreads to the neighbours before the rod relaxes toward its profile.
    kernel = jnp.array([0.25, 0.5, 0.25], field.dtype)
    return toward_taper(jnp.convolve(field, kernel, mode="same"), rate, field.dtype)
''',
    "run.py": '''\
"""Relax a float32 rod toward its profile."""

import jax
@X64@
import jax.numpy as jnp  # noqa: E402

from rod import relax  # noqa: E402


def main(steps=3):
    field = jnp.zeros(16, jnp.float32)
    for _ in range(steps):
        field = relax(field, 0.25)
    return field


if __name__ == "__main__":
    main()
''',
}

# Running statistics whose sample count starts as jnp.array(n) (weakly typed) in a class's factory
# method and comes back as the count plus a mask's .sum() (strong).
TALLY = {
    "tally.py": '''\
"""Counts of valid readings, kept next to their running sum."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Tally(NamedTuple):
    count: jax.Array
    total: jax.Array


class Counter:
    def __init__(self, width):
        self.width = width

    def start(self, first):
        return Tally(jnp.array(first.shape[0]@DTYPE@), first.sum(axis=0))

    @staticmethod
    @jax.jit
    def add(tally, batch, valid):
        kept = jnp.where(valid[:, None], batch, 0.0)
        return Tally(tally.count + valid.sum(), tally.total + kept.sum(axis=0))
''',
    "main.py": '''\
"""Tally a stream of sensor batches."""

import jax.numpy as jnp
import numpy as np

from tally import Counter


def stream(n=4, rows=8, width=3):
    rng = np.random.default_rng(0)
    for _ in range(n):
        yield jnp.asarray(rng.normal(size=(rows, width)), jnp.float32), jnp.asarray(rng.random(rows) > 0.2)


def main():
    counter = Counter(3)
    batches = stream()
    first, _ = next(batches)
    tally = counter.start(first)
    for batch, valid in batches:
        tally = counter.add(tally, batch, valid)
    return tally


if __name__ == "__main__":
    main()
''',
}

# A bandit simulator whose start method hands back (observation, state) with the running reward as
# Python 0.0 in a NamedTuple; the jitted play step returns it as a strong float32 sum.
BANDIT = {
    "bandit.py": '''\
"""A Bernoulli bandit whose state records the reward collected so far."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class ArmState(NamedTuple):
    means: jax.Array
    collected: jax.Array


class Bandit:
    def __init__(self, arms):
        self.arms = arms

    def start(self, key):
        means = jax.random.uniform(key, (self.arms,), jnp.float32)
        return jnp.zeros(self.arms, jnp.float32), ArmState(means, @ZERO@)

    def pull(self, key, state, arm):
        reward = jax.random.bernoulli(key, state.means[arm]).astype(jnp.float32)
        return ArmState(state.means, state.collected + reward)
''',
    "play.py": '''\
"""Play a random policy."""

import jax

from bandit import Bandit

sim = Bandit(4)


@jax.jit
def play(state, key):
    arm_key, pull_key = jax.random.split(key)
    arm = jax.random.randint(arm_key, (), 0, 4)
    return sim.pull(pull_key, state, arm), arm


def main(steps=3):
    _, state = sim.start(jax.random.PRNGKey(0))
    for key in jax.random.split(jax.random.PRNGKey(1), steps):
        state, arm = play(state, key)
    return state


if __name__ == "__main__":
    main()
''',
}


# A tracking task whose reset builds its info dict without the "cost" key the jitted step adds to it
# ({**state.info, ...}): the info field of the NamedTuple state changes structure.
TRACKER = {
    "task.py": '''\
"""Follow a moving target with a point mass."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class TaskState(NamedTuple):
    position: jax.Array
    info: dict


class Tracking:
    def __init__(self, speed=0.1):
        self.speed = speed

    def reset(self):
        info = {"tick": jnp.zeros((), jnp.int32)@COST@}
        return TaskState(jnp.zeros(2, jnp.float32), info)

    def target(self, tick):
        angle = self.speed * tick
        return jnp.stack([jnp.cos(angle), jnp.sin(angle)])

    def advance(self, state, push):
        tick = state.info["tick"] + 1
        position = state.position + 0.1 * push
        cost = jnp.sum((position - self.target(tick)) ** 2)
        return TaskState(position, {**state.info, "tick": tick, "cost": cost})
''',
    "drive.py": '''\
"""Drive the point mass toward the target."""

import jax

from task import Tracking

task = Tracking()


@jax.jit
def control_step(state):
    push = task.target(state.info["tick"] + 1) - state.position
    return task.advance(state, push)


def main(steps=3):
    state = task.reset()
    for _ in range(steps):
        state = control_step(state)
    return state


if __name__ == "__main__":
    main()
''',
}

# Optimizer moments kept in float16 to save memory, upcast to float32 for the update and handed back
# without the cast down.
MOMENTS = {
    "momentum.py": '''\
"""Heavy-ball momentum with half-precision buffers."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Buffers(NamedTuple):
    velocity: dict


def init_buffers(params):
    return Buffers(jax.tree_util.tree_map(lambda p: jnp.zeros_like(p, dtype=jnp.float16), params))


def momentum_update(grads, buffers, beta=0.9):
    full = jax.tree_util.tree_map(lambda v: v.astype(jnp.float32), buffers.velocity)
    velocity = jax.tree_util.tree_map(lambda v, g: beta * v + g, full, grads)
    return velocity, Buffers(@DOWN@)
''',
    "fit.py": '''\
"""Fit a linear model with momentum."""

import jax
import jax.numpy as jnp

from momentum import init_buffers, momentum_update


def loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


@jax.jit
def fit_step(params, buffers, x, y):
    grads = jax.grad(loss)(params, x, y)
    velocity, buffers = momentum_update(grads, buffers)
    return jax.tree_util.tree_map(lambda p, v: p - 0.05 * v, params, velocity), buffers


def main(steps=3):
    x = jnp.ones((8, 3), jnp.float32)
    y = jnp.zeros(8, jnp.float32)
    params = {"w": jnp.zeros(3, jnp.float32), "b": jnp.zeros((), jnp.float32)}
    buffers = init_buffers(params)
    for _ in range(steps):
        params, buffers = fit_step(params, buffers, x, y)
    return params


if __name__ == "__main__":
    main()
''',
}


# A level monitor whose start leaves the last frame's mean None; the jitted step gives back
# frame.mean(), a reduction: never None.
PEAK = {
    "monitor.py": '''\
"""Track the running peak and the last mean of a signal."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Levels(NamedTuple):
    peak: jax.Array
    last_mean: object


def start_levels():
    return Levels(jnp.zeros((), jnp.float32), @MEAN@)


@jax.jit
def observe(levels, frame):
    return Levels(jnp.maximum(levels.peak, frame.max()), frame.mean())
''',
    "watch.py": '''\
"""Watch a few frames."""

import jax.numpy as jnp

from monitor import observe, start_levels


def main(steps=3):
    levels = start_levels()
    for i in range(steps):
        levels = observe(levels, jnp.full(4, float(i), jnp.float32))
    return levels


if __name__ == "__main__":
    main()
''',
}


def _write(root: Path, files: dict[str, str], **holes: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        for hole, value in holes.items():
            text = text.replace(f"@{hole}@", value)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _found(root: Path) -> list[tuple[str, int, str]]:
    findings = analyse([str(root)], Settings(cache=False, select=("RTL",))).findings
    return [(Path(f.location.path).name, f.location.line, f.code) for f in findings]


def _traced_as_expected(
    projects: dict[str, Path],
    positives: Container[str],
    runs: dict[str, tuple[str, str]],
    cwd: Path,
) -> None:
    """Runs every project under jax in one subprocess: the jitted function it is about traces twice
    when ``positives`` names the project, else once. ``runs``: by the first word of a project's
    name, the script it runs and that function's name."""
    names = list(projects)
    scripts = [projects[n] / runs[n.split("_")[0]][0] for n in names]
    for name, report in zip(names, count_retraces_many(scripts, cwd=cwd), strict=True):
        traces = {f.name: n for f, n in report.traces.items()}
        expected = 2 if name in positives else 1
        assert traces.get(runs[name.split("_")[0]][1]) == expected, (name, report.summary())


def _projects(tmp_path: Path) -> dict[str, Path]:
    x64 = '\njax.config.update("jax_enable_x64", True)\n'
    return {
        "heat": _write(tmp_path / "heat", HEAT, DTYPE="", X64=x64),
        "heat_fixed": _write(tmp_path / "heat_fixed", HEAT, DTYPE=", dtype=dtype", X64=x64),
        "heat_x32": _write(tmp_path / "heat_x32", HEAT, DTYPE="", X64=""),
        "tally": _write(tmp_path / "tally", TALLY, DTYPE=""),
        "tally_fixed": _write(tmp_path / "tally_fixed", TALLY, DTYPE=", dtype=jnp.int32"),
        "bandit": _write(tmp_path / "bandit", BANDIT, ZERO="0.0"),
        "bandit_fixed": _write(
            tmp_path / "bandit_fixed", BANDIT, ZERO="jnp.zeros((), jnp.float32)"
        ),
    }


# Where each positive is reported: the operand of the wider dtype, the weak count, the weak reward.
EXPECTED = {
    "heat": [("profiles.py", 8, "RTL402")],
    "tally": [("tally.py", 19, "RTL401")],
    "bandit": [("bandit.py", 20, "RTL401")],
    "tracker": [("task.py", 20, "RTL403")],
    "moments": [("momentum.py", 14, "RTL402")],
    "peak": [("monitor.py", 15, "RTL403")],
}


def test_promoted_results_are_found_where_the_flip_is_made(tmp_path: Path) -> None:
    for name, root in _projects(tmp_path).items():
        assert _found(root) == EXPECTED.get(name, []), name


# The jitted function each project calls in its loop, as jax names it, and the script that runs it.
JITTED = {
    "heat": ("relax", "run.py"),
    "tally": ("add", "main.py"),
    "bandit": ("play", "play.py"),
    "tracker": ("control_step", "drive.py"),
    "moments": ("fit_step", "fit.py"),
    "peak": ("observe", "watch.py"),
}


@needs_jax
def test_the_positives_retrace_under_jax_and_their_twins_do_not(tmp_path: Path) -> None:
    projects = _projects(tmp_path)
    scripts = {name: root / JITTED[name.split("_")[0]][1] for name, root in projects.items()}
    # x64 is process-wide: the two programs that turn it on share a subprocess of their own.
    x64 = [name for name in scripts if name in ("heat", "heat_fixed")]
    rest = [name for name in scripts if name not in x64]
    reports = {}
    for names in (x64, rest):
        runs = count_retraces_many([scripts[n] for n in names], cwd=tmp_path)
        reports.update(zip(names, runs, strict=True))
    for name, report in reports.items():
        traces = {f.name: n for f, n in report.traces.items()}
        jitted = JITTED[name.split("_")[0]][0]
        assert traces.get(jitted) == (2 if name in EXPECTED else 1), (name, report.summary())
