"""What bounds a finding is a fact it carries and tells (issue 36: an error only when the re-traces
grow with the run; rounds 25 and 28 S1): a warning kept so by a bound ends its message with it, in
a few words, and JSON carries it, so that a deliberate design reads apart from a leak.

- a static spin channel, ``s = int(e >= n_up)`` in a helper a Monte Carlo sweep calls per electron,
  takes two values: at most two traces. The electron index itself passed static grows with the
  system, and the sweep runs per step: an error;
- a benchmark over the configurations the command line names, else every one of a module's table
  (``args.configs or list(CONFIGS)``), times an eager ``lax.scan`` of a nested def per
  configuration: a trace per item. The same scan per step of a training loop is an error, with
  no bound told."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main

_DETERMINANTS = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def gradient_jit(coords, s, coeffs):
    return coords * coeffs[s]


def gradient(e, coords, coeffs, n_up):
    s = int(e >= n_up)
    return gradient_jit(coords, s, coeffs)


def orbital(e, coords, coeffs):
    return gradient_jit(coords, e, coeffs)
"""

_MC = """\
import jax.numpy as jnp

from determinants import gradient, orbital


def sweep(coords, coeffs, n_up, nelec):
    for e in range(nelec):
        coords = coords + gradient(e, coords, coeffs, n_up)
        coords = coords + orbital(e, coords, coeffs)
    return coords


def run(n_steps, nelec):
    coords = jnp.ones(3)
    coeffs = (jnp.ones(3), jnp.zeros(3))
    for _ in range(n_steps):
        coords = sweep(coords, coeffs, 2, nelec)
    return coords
"""

_MODEL = """\
import jax.numpy as jnp
from jax import lax


def rollout(x, width):
    def body(carry, _):
        return jnp.tanh(carry * width), None

    return lax.scan(body, x, None, length=4)[0]
"""

_BENCHMARK = """\
import argparse
import time

import jax.numpy as jnp

from model import rollout

CONFIGS = {"small": 64, "base": 256, "large": 1024}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--configs", nargs="*")
    args = parser.parse_args()
    configs_to_run = args.configs or list(CONFIGS.keys())
    for name in configs_to_run:
        start = time.perf_counter()
        rollout(jnp.ones(8), 0.5)
        print(name, time.perf_counter() - start)


if __name__ == "__main__":
    main()
"""

_TRAIN = """\
import jax.numpy as jnp

from model import rollout


def train(steps, width):
    x = jnp.ones(8)
    for _ in range(steps):
        x = rollout(x, width)
    return x
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in (
        ("determinants.py", _DETERMINANTS),
        ("mc.py", _MC),
        ("model.py", _MODEL),
        ("benchmark.py", _BENCHMARK),
    ):
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _found(*args: str) -> dict[tuple[str, int, str], dict]:
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", *args, "."])
    assert result.exit_code == 1, result.output
    return {(f["path"], f["line"], f["code"]): f for f in json.loads(result.stdout)}


def test_a_bound_keeps_a_warning_and_is_told_growth_stays_an_error(project: Path) -> None:
    found = _found()
    told = {key: (f["severity"], f["bound"]) for key, f in found.items()}
    assert told == {
        # the spin channel: two values however many electrons and steps
        ("determinants.py", 14, "RTL201"): ("warning", "at most 2 traces: one per value of `s`"),
        # the electron index: one trace per electron, every system size
        ("mc.py", 9, "RTL201"): ("error", None),
        # a scan per configuration named on the command line, else per entry of the table
        ("model.py", 9, "RTL301"): ("warning", "bounded: one per item of `configs_to_run`"),
    }
    spin = found["determinants.py", 14, "RTL201"]["message"]
    assert spin.endswith("; make it traced (at most 2 traces: one per value of `s`)")
    assert "bound" not in found["mc.py", 9, "RTL201"]["message"]
    scan = found["model.py", 9, "RTL301"]["message"]
    assert scan.endswith("; define body once (bounded: one per item of `configs_to_run`)")


def test_the_per_step_scan_is_an_error_with_no_bound(project: Path) -> None:
    """The one eager scan runs per configuration in the benchmark and per step in the training
    loop: the growing driver decides."""
    (project / "train.py").write_text(_TRAIN, encoding="utf-8")
    scan = _found()["model.py", 9, "RTL301"]
    assert (scan["severity"], scan["bound"]) == ("error", None)
    assert "bounded" not in scan["message"]
