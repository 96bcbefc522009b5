"""Paths that join what never meets in one process (fresh round 17, cause 3): a jit each object makes
for itself, called inside a trace context by one caller's object and outside it by another's (RTL405);
a field whose maker a loop in a callee repeats, read once after that loop has ended (RTL105). Each
beside the shape that stays reported: one object called inside and outside the context, a loop of
the reader's that really calls the jit again with a new length."""

from __future__ import annotations

from pathlib import Path

from retracelint.config import Settings
from retracelint.engine import analyse
from retracelint.model import Finding

STEPPER = {
    "bench/_common.py": """\
import time

import jax

from sim.stepper import PositionVerlet
from sim.system import build


def integrate_rollout(system, *, steps, warmup_runs):
    stepper = PositionVerlet()
    t = 0.0
    for _ in range(warmup_runs):
        t = stepper.integrate(system, time=t, final_time=t + steps * 1e-3, dt=1e-3)
    start = time.perf_counter()
    stepper.integrate(system, time=t, final_time=t + steps * 1e-3, dt=1e-3)
    return time.perf_counter() - start


def run_rollout(backend, n_rods, steps, warmup_runs):
    device = jax.devices(backend)[0]
    with jax.default_device(device):
        system = build(n_rods)
        return integrate_rollout(system, steps=steps, warmup_runs=warmup_runs)


def run_rollout_two_gpus(n_rods, steps, warmup_runs):
    system = build(n_rods)
    return integrate_rollout(system, steps=steps, warmup_runs=warmup_runs)
""",
    "bench/throughput.py": """\
import sys

from _common import run_rollout, run_rollout_two_gpus


def main(backend, n_rods=64, steps=1000, warmup_runs=1):
    if backend == "gpu2x":
        walltime = run_rollout_two_gpus(n_rods, steps, warmup_runs)
    else:
        walltime = run_rollout(backend, n_rods, steps, warmup_runs)
    print(f"rollout walltime: {walltime:.6f}")


if __name__ == "__main__":
    main(sys.argv[1])
""",
    "examples/run_rods.py": """\
from sim.stepper import PositionVerlet
from sim.system import build

system = build(8)
stepper = PositionVerlet()
t = 0.0
for _ in range(100):
    t = stepper.integrate(system, time=t, final_time=t + 0.1, dt=1e-3)
print(system.state)
""",
    "sim/__init__.py": """\
""",
    "sim/stepper.py": """\
import jax
import numpy as np


class PositionVerlet:
    def __init__(self):
        self._rollouts = {}

    def integrate(self, system, *, time, final_time, dt):
        n_steps = int(round((final_time - time) / dt))
        rollout = self._get_compiled_rollout(system, n_steps)
        final_time_jax, state = rollout(np.float64(time), system.state, dt)
        system.state = state
        return float(final_time_jax)

    def _get_compiled_rollout(self, system, n_steps):
        key = (id(system), n_steps)
        if key in self._rollouts:
            return self._rollouts[key]

        @jax.jit
        def rollout(t, state, dt):
            def body(_, carry):
                t, s = carry
                return t + dt, system.step(s, dt)

            return jax.lax.fori_loop(0, n_steps, body, (t, state))

        self._rollouts[key] = rollout
        return rollout
""",
    "sim/system.py": """\
import jax.numpy as jnp


class Rods:
    def __init__(self, n_rods):
        self.state = jnp.zeros((n_rods, 3))

    def step(self, state, dt):
        return state + dt * jnp.ones_like(state)


def build(n_rods):
    return Rods(n_rods)
""",
}

SHARED_STEPPER = {
    "bench/check_devices.py": """\
import jax

from sim.stepper import PositionVerlet
from sim.system import build


def main():
    stepper = PositionVerlet()
    system = build(64)
    t = 0.0
    for _ in range(10):
        with jax.default_device(jax.devices("cpu")[0]):
            t = stepper.integrate(system, time=t, final_time=t + 0.1, dt=1e-3)
        t = stepper.integrate(system, time=t, final_time=t + 0.1, dt=1e-3)


if __name__ == "__main__":
    main()
""",
    "bench/shared.py": """\
import jax

from sim.stepper import PositionVerlet
from sim.system import build


def advance(stepper, system, t):
    return stepper.integrate(system, time=t, final_time=t + 0.1, dt=1e-3)


def compare_devices(n_rods, n_rounds):
    system, stepper = build(n_rods), PositionVerlet()
    t = 0.0
    for _ in range(n_rounds):
        t = advance(stepper, system, t)
        with jax.default_device(jax.devices("cpu")[0]):
            t = advance(stepper, system, t)
    return t


if __name__ == "__main__":
    print(compare_devices(64, 10))
""",
}

GPM = {
    "gpm/__init__.py": """\
""",
    "gpm/kalman.py": """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("num_steps",))
def simulate_state_space(init_x, init_P, num_steps):
    def step(x, _):
        x = 0.9 * x
        return x, x

    _, xs = jax.lax.scan(step, init_x, None, length=num_steps)
    return xs, init_P
""",
    "gpm/orchestrator.py": """\
from gpm.parser import ModelParser


class Orchestrator:
    def __init__(self, path):
        self.model = ModelParser().parse_file(path)
        self.state_dim = len(self.model.trends) + len(self.model.parameters)


def create_orchestrator(path):
    return Orchestrator(path)
""",
    "gpm/parser.py": """\
from dataclasses import dataclass


@dataclass
class ReducedModel:
    parameters: list
    trends: list


class ModelParser:
    def __init__(self):
        self.model_data = {"parameters": [], "trends": []}

    def parse_file(self, path):
        with open(path) as handle:
            return self.parse_content(handle.read())

    def parse_content(self, text):
        lines = [line.strip() for line in text.splitlines()]
        idx = 0
        while idx < len(lines):
            line = lines[idx]
            if line.startswith("parameters"):
                idx = self._parse_list(lines, idx, "parameters")
            elif line.startswith("trends"):
                idx = self._parse_list(lines, idx, "trends")
            else:
                idx += 1
        return ReducedModel(self.model_data["parameters"], self.model_data["trends"])

    def _parse_list(self, lines, start, key):
        names = lines[start].split(None, 1)[1].rstrip(";").split(",")
        self.model_data[key].extend(name.strip() for name in names if name.strip())
        return start + 1
""",
}

ONE_MODEL = {
    "smoother.py": """\
import sys

import jax.numpy as jnp

from gpm.kalman import simulate_state_space
from gpm.orchestrator import create_orchestrator


def generate_synthetic_data(path):
    orchestrator = create_orchestrator(path)
    init_x = jnp.zeros(orchestrator.state_dim)
    init_P = jnp.eye(orchestrator.state_dim) * 0.01
    return simulate_state_space(init_x=init_x, init_P=init_P, num_steps=100)


if __name__ == "__main__":
    print(generate_synthetic_data(sys.argv[1]))
""",
}

EACH_MODEL = {
    "smoother.py": """\
import sys

import jax.numpy as jnp

from gpm.kalman import simulate_state_space
from gpm.orchestrator import create_orchestrator


def compare_models(paths):
    results = []
    for path in paths:
        orchestrator = create_orchestrator(path)
        init_x = jnp.zeros(orchestrator.state_dim)
        init_P = jnp.eye(orchestrator.state_dim) * 0.01
        results.append(simulate_state_space(init_x=init_x, init_P=init_P, num_steps=100))
    return results


if __name__ == "__main__":
    print(compare_models(sys.argv[1:]))
""",
}


def _run(root: Path, *trees: dict[str, str]) -> list[Finding]:
    for files in trees:
        for name, text in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return analyse([str(root)], Settings(cache=False, select=("RTL",))).findings


def _where(findings: list[Finding]) -> list[tuple[str, int, str]]:
    return [(Path(f.location.path).name, f.location.line, f.code) for f in findings]


def test_a_jit_per_stepper_object_under_a_device_block_in_one_branch_only(tmp_path: Path) -> None:
    """The benchmark makes a stepper per rollout: the device block of one backend and the
    plain call of the other (and the example's own stepper) never share a rollout jit."""
    assert _where(_run(tmp_path, STEPPER)) == []


def test_one_stepper_called_inside_and_outside_a_device_block_stays(tmp_path: Path) -> None:
    found = _run(tmp_path, STEPPER, SHARED_STEPPER)
    # Made in the function that enters the block, and passed down to a helper: both reported.
    assert _where(found) == [("check_devices.py", 12, "RTL405"), ("shared.py", 16, "RTL405")]
    for finding in found:
        assert finding.severity == "warning"
        assert finding.message.startswith(
            "jitted 'rollout' is called inside `jax.default_device(jax.devices(\"cpu\")...` here"
            " and outside it at "
        )
        assert "jax keys its trace cache on jax_default_device" in finding.details


def test_a_parser_loop_in_a_callee_does_not_repeat_the_later_jitted_call(tmp_path: Path) -> None:
    """The model file's `while` over lines ends in the orchestrator's constructor; the state
    dimension it leaves in the object's fields reaches one jitted call."""
    assert _where(_run(tmp_path, GPM, ONE_MODEL)) == []


def test_a_loop_over_model_files_around_the_jitted_call_stays_an_error(tmp_path: Path) -> None:
    found = _run(tmp_path, GPM, EACH_MODEL)
    assert _where(found) == [("smoother.py", 13, "RTL105")]
    assert found[0].severity == "error"
    assert found[0].parameter == "init_x"
    assert found[0].message.startswith("jnp.zeros(orchestrator.state_dim) changes shape")
    assert found[0].related[0].parameter == "init_P"
