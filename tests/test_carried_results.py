"""What a jitted step gives back, leaf by leaf, against what its carried state starts as (issue 39),
for states made in one module and stepped in another: a dtype taken from another value's ``.dtype``,
the aux output of ``jax.value_and_grad(..., has_aux=True)``, a ``lax.scan`` carry stored on ``self``,
and x64 turned on by the script that runs. Each project re-traces under jax 0.10.2 (two traces of the
step, JAX_LOG_COMPILES) and its fixed twin, one change away, traces once."""

from __future__ import annotations

from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse
from retracelint.model import Finding


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")


def _found(root: Path) -> list[Finding]:
    return analyse([str(root)], Settings(cache=False, select=("RTL",))).findings


def _where(findings: list[Finding]) -> list[tuple[str, int, str]]:
    return [(Path(f.location.path).name, f.location.line, f.code) for f in findings]


MONITOR = {
    "monitor.py": '''\
"""Training state that records the peak activation next to the parameters, in their precision."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Monitor(NamedTuple):
    peak: jax.Array
    steps: jax.Array


def start_monitor(params):
    return Monitor(
        peak=jnp.zeros((), params.dtype),
        steps=jnp.zeros((), jnp.int32),
    )


def loss_and_peak(params, batch):
    pred = batch @ params.astype(jnp.float32)
    return jnp.mean(pred**2), jnp.max(jnp.abs(pred)).astype(jnp.float32)


@jax.jit
def train_step(params, monitor, batch):
    (_, peak), grads = jax.value_and_grad(loss_and_peak, has_aux=True)(params, batch)
    new_params = params - 0.01 * grads
    return new_params, Monitor(peak, monitor.steps + 1)
''',
    "train.py": '''\
"""Fit half-precision weights; the loss is reduced in float32."""

import jax.numpy as jnp
import numpy as np

from monitor import start_monitor, train_step


def fit(steps=4):
    params = jnp.ones(8, jnp.bfloat16)
    monitor = start_monitor(params)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        batch = jnp.asarray(rng.normal(size=(16, 8)), dtype=jnp.float32)
        params, monitor = train_step(params, monitor, batch)
    return monitor


if __name__ == "__main__":
    print(fit())
''',
}

KALMAN = {
    "kalman.py": '''\
"""A scalar Kalman filter run over chunks of readings, one lax.scan per chunk."""

import jax
import jax.numpy as jnp
from jax import lax

NOISE = 0.25


def _update(carry, reading):
    mean, var = carry
    gain = var / (var + NOISE)
    mean = mean + gain * (reading - mean)
    var = (1 - gain) * var + 0.01
    return (mean, var), mean


@jax.jit
def filter_chunk(carry, readings):
    return lax.scan(_update, carry, readings)
''',
    "main.py": """\
import jax.numpy as jnp
import numpy as np

from tracker import Tracker


def main():
    tracker = Tracker()
    rng = np.random.default_rng(0)
    for _ in range(3):
        chunk = jnp.asarray(rng.normal(size=32), dtype=jnp.float32)
        print(tracker.feed(chunk)[-1])


if __name__ == "__main__":
    main()
""",
    "tracker.py": '''\
"""Track a sensor chunk by chunk, keeping the filter's state between chunks."""

from kalman import filter_chunk


class Tracker:
    def __init__(self):
        self.state = (0.0, 1.0)

    def feed(self, readings):
        self.state, estimates = filter_chunk(self.state, readings)
        return estimates
''',
}

ADVECTION = {
    "advance.py": '''\
"""Advect a profile and keep the clock, both stepped by a jitted function."""

import jax
import jax.numpy as jnp


@jax.jit
def advance(u, t, dt):
    return u - dt * jnp.gradient(u), t + dt


def simulate(grid, steps):
    u = grid.values()
    t = jnp.zeros((), jnp.float32)
    dt = jnp.full((), 1e-3, dtype=u.dtype)  # the step in the data's precision
    for _ in range(steps):
        u, t = advance(u, t, dt)
    return u, t
''',
    "grid.py": '''\
"""A 1-D grid whose values come from NumPy (float64 when jax's 64-bit types are on)."""

import jax.numpy as jnp
import numpy as np


class Grid:
    def __init__(self, n):
        self.n = n

    def values(self):
        return jnp.asarray(np.linspace(0.0, 1.0, self.n))
''',
    "main.py": """\
import jax

jax.config.update("jax_enable_x64", True)

from advance import simulate  # noqa: E402
from grid import Grid  # noqa: E402

if __name__ == "__main__":
    print(simulate(Grid(16), 4)[1])
""",
}


def test_a_state_leaf_made_in_the_parameters_dtype_and_given_back_as_float32_aux(tmp_path: Path):
    _write(tmp_path, MONITOR)
    found = _found(tmp_path)
    # Reported where the leaf takes the parameters' dtype (bfloat16, from the caller in train.py).
    assert _where(found) == [("monitor.py", 16, "RTL402")]
    assert "monitor.peak starts as bfloat16 here and is float32" in found[0].message


def test_the_aux_cast_to_the_state_leafs_own_dtype_traces_once(tmp_path: Path):
    fixed = MONITOR["monitor.py"].replace(
        "Monitor(peak, monitor.steps + 1)",
        "Monitor(peak.astype(monitor.peak.dtype), monitor.steps + 1)",
    )
    _write(tmp_path, {**MONITOR, "monitor.py": fixed})
    assert _found(tmp_path) == []


def test_the_state_in_the_aux_dtype_from_the_start_traces_once(tmp_path: Path):
    fixed = MONITOR["monitor.py"].replace(
        "jnp.zeros((), params.dtype)", "jnp.zeros((), jnp.float32)"
    )
    _write(tmp_path, {**MONITOR, "monitor.py": fixed})
    assert _found(tmp_path) == []


def test_a_weak_scan_carry_stored_on_self_comes_back_strong(tmp_path: Path):
    _write(tmp_path, KALMAN)
    found = _found(tmp_path)
    # The mean is pulled toward float32 readings; the variance is made of weak numbers only.
    assert _where(found) == [("tracker.py", 8, "RTL401")]
    assert found[0].message.startswith("self.state[0] starts as a weakly typed scalar here")
    assert "filter_chunk() returns it" in found[0].message


def test_a_strong_scan_carry_stored_on_self_traces_once(tmp_path: Path):
    fixed = (
        KALMAN["tracker.py"]
        .replace(
            "self.state = (0.0, 1.0)",
            "self.state = (jnp.zeros((), jnp.float32), jnp.ones((), jnp.float32))",
        )
        .replace("from kalman", "import jax.numpy as jnp\n\nfrom kalman")
    )
    _write(tmp_path, {**KALMAN, "tracker.py": fixed})
    assert _found(tmp_path) == []


def test_a_step_in_the_datas_dtype_widens_a_float32_clock_under_x64(tmp_path: Path):
    _write(tmp_path, ADVECTION)
    found = _found(tmp_path)
    assert _where(found) == [("advance.py", 14, "RTL402")]
    assert "t starts as float32 here and is float64 once advance() returns it" in found[0].message


def test_without_x64_in_the_script_that_runs_the_clock_stays_float32(tmp_path: Path):
    script = ADVECTION["main.py"].replace('jax.config.update("jax_enable_x64", True)', "")
    _write(tmp_path, {**ADVECTION, "main.py": script})
    assert _found(tmp_path) == []


def test_a_weak_scan_carry_a_helper_of_another_module_makes(tmp_path: Path):
    kalman = KALMAN["kalman.py"] + "\n\ndef initial_state():\n    return (0.0, 1.0)\n"
    tracker = (
        KALMAN["tracker.py"]
        .replace(
            "from kalman import filter_chunk", "from kalman import filter_chunk, initial_state"
        )
        .replace("self.state = (0.0, 1.0)", "self.state = initial_state()")
    )
    _write(tmp_path, {**KALMAN, "kalman.py": kalman, "tracker.py": tracker})
    found = _found(tmp_path)
    assert _where(found) == [("kalman.py", 24, "RTL401")]  # told where the helper writes it
    assert found[0].message.startswith("self.state[0] starts as a weakly typed scalar here")


def test_a_weak_scan_carry_passed_through_a_partial(tmp_path: Path):
    tracker = KALMAN["tracker.py"].replace(
        "filter_chunk(self.state, readings)",
        "functools.partial(filter_chunk, self.state)(readings)",
    )
    _write(tmp_path, {**KALMAN, "tracker.py": "import functools\n\n" + tracker})
    assert _where(_found(tmp_path)) == [("tracker.py", 10, "RTL401")]


SCAN_CARRY = {
    "updates.py": '''\
"""One update of the runner state, a lax.scan body whose carry holds the state and the levels."""

import jax


def train_step(carry, unused):
    runner_state, instances = carry
    params, steps, rng = runner_state
    rng, key = jax.random.split(rng)
    params = params + 0.1 * jax.random.normal(key, params.shape) * instances.mean()
    runner_state = (params, steps + 1, rng)
    return (runner_state, instances), params.sum()
''',
    "training.py": '''\
"""Train between evaluations: a scan over updates, its carry unpacked back into the runner state."""

import jax

from updates import train_step


def make_train(num_updates, eval_freq):
    @jax.jit
    def train_and_eval_step(runner_state, eval_rng):
        instances = jax.random.uniform(eval_rng, (16,))
        carry, metrics = jax.lax.scan(train_step, (runner_state, instances), None, eval_freq)
        runner_state, _ = carry
        return runner_state, instances[-4:], metrics

    def train(rng, params):
        runner_state = (params, 0, rng)
        for _ in range(num_updates // eval_freq):
            rng, eval_rng = jax.random.split(rng)
            runner_state, top, metrics = train_and_eval_step(runner_state, eval_rng)
        return runner_state

    return train
''',
    "main.py": """\
import jax
import jax.numpy as jnp

from training import make_train

if __name__ == "__main__":
    make_train(40, 10)(jax.random.PRNGKey(0), jnp.zeros(3))
""",
}


def test_the_state_unpacked_from_a_scan_carry_keeps_its_structure(tmp_path: Path):
    """``runner_state, _ = carry`` of the carry ``(runner_state, instances)`` a scan gives back is
    the 3-tuple state, as it started (round 8, cause 4: jax traces the step once in four calls)."""
    _write(tmp_path, SCAN_CARRY)
    assert _found(tmp_path) == []


def test_the_whole_scan_carry_given_back_as_the_state_changes_its_structure(tmp_path: Path):
    """Giving back the whole carry, the state and the levels, makes the next call's state a 2-tuple:
    a new pytree structure, reported where the state starts."""
    training = SCAN_CARRY["training.py"].replace("runner_state, _ = carry", "runner_state = carry")
    _write(tmp_path, {**SCAN_CARRY, "training.py": training})
    found = _found(tmp_path)
    assert _where(found) == [("training.py", 17, "RTL403")]
    assert "a tuple of 3 here and is a tuple of 2" in found[0].message


FIXTURES = Path(__file__).parent / "fixtures"


def test_an_item_of_a_tuple_a_helper_forwards_is_that_item() -> None:
    """``runner_state, apply_fn, lr = _init()`` where ``_init`` returns ``init_runner(...)``'s tuple
    (fresh round 13, starjaxrl's tests): the state is item 0 of it, not the whole 3-tuple. Started
    as the RunnerState the update hands back, it is one structure; started as a plain 4-tuple, it
    is told as such."""
    assert _found(FIXTURES / "runner_states_from_forwarding_helpers_negative") == []
    (flip,) = _found(FIXTURES / "runner_states_from_forwarding_helpers")
    assert _where([flip]) == [("main.py", 25, "RTL403")]
    assert flip.message.startswith("runner_state starts as a tuple of 4 here and is a RunnerState")
