"""``jax.checkpoint`` (``jax.remat``) of the same module-level step, made anew at each call and handed
to an eager ``lax.scan``: fresh round 16 judged it shared (SeapoPym-JAX ``engine/run.py:128``,
"checkpoint of the same function traces it once"). JAX 0.10.2 says otherwise: the step's Python body
runs once, but the scan traces the new wrapper (``TRACING CACHE MISS ... never seen function: step ...
but seen another function defined on the same line``) and lowers and compiles the loop again at every
call, as it does for ``jax.jit(step)`` made anew (measured: about 0.14 s per call on CPU for a
30-operation step, 0.0003 s with the wrapper made once). So RTL301 stays; a wrapper made once is
clean."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from dynamic_support import RetraceReport, count_retraces_many

from retracelint.config import Settings
from retracelint.engine import analyse

needs_jax = pytest.mark.skipif(
    importlib.util.find_spec("jax") is None, reason="jax is not installed"
)

_ENGINE = """\
import jax
from jax import lax


def run(step_fn, state, forcings, checkpoint=True):
    effective_step = jax.checkpoint(step_fn) if checkpoint else step_fn
    return lax.scan(effective_step, state, forcings)
"""

_ONCE = """\
import jax
from jax import lax


def make_runner(step_fn):
    effective_step = jax.checkpoint(step_fn)

    def run(state, forcings):
        return lax.scan(effective_step, state, forcings)

    return run
"""

_MODEL = """\
import jax.numpy as jnp


def step(biomass, forcing):
    biomass = biomass + 0.1 * (forcing - biomass)
    return biomass, jnp.sum(biomass)
"""

_FIT = """\
import jax.numpy as jnp

from engine import run
from model import step

forcings = jnp.linspace(0.0, 1.0, 12).reshape(6, 2)
for mode in range(3):  # one run per optimum found
    final, outputs = run(step, jnp.full(2, float(mode)), forcings)
    print(mode, outputs[-1])
"""

_FIT_ONCE = """\
import jax.numpy as jnp

from model_once import step
from runner import make_runner

forcings = jnp.linspace(0.0, 1.0, 12).reshape(6, 2)
run = make_runner(step)
for mode in range(3):
    final, outputs = run(jnp.full(2, float(mode)), forcings)
    print(mode, outputs[-1])
"""


def _write(root: Path) -> None:
    files = {
        "engine.py": _ENGINE,
        "runner.py": _ONCE,
        "model.py": _MODEL,
        # A program of its own file per run: jax remembers the functions it saw by file and line.
        "model_once.py": _MODEL,
        "fit.py": _FIT,
        "fit_once.py": _FIT_ONCE,
    }
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")


def test_a_checkpoint_made_per_call_and_scanned_eagerly_is_reported(tmp_path: Path) -> None:
    _write(tmp_path)
    findings = analyse([str(tmp_path)], Settings(cache=False, select=("RTL",))).findings
    assert [(Path(f.location.path).name, f.location.line, f.code) for f in findings] == [
        ("engine.py", 7, "RTL301")
    ]
    assert "lax.scan(...) traces a new transformed function each call of run()" in (
        findings[0].message
    )


def _scan_traces(report: RetraceReport, module: str) -> int:
    """The traces of the scan's function at the scan of ``module`` (each call of checkpoint's
    result also traces the step inside it, once per step function, logged with no call site)."""
    return sum(1 for r in report.records if r.callsite.startswith(str(Path(module).resolve())))


@needs_jax
def test_jax_traces_the_scan_again_per_new_checkpoint_not_per_one_made_once(
    tmp_path: Path,
) -> None:
    _write(tmp_path)
    per_call, once = count_retraces_many([tmp_path / "fit.py", tmp_path / "fit_once.py"], tmp_path)
    assert not per_call.raised and not once.raised
    assert _scan_traces(per_call, str(tmp_path / "engine.py")) == 3, per_call.summary()
    assert _scan_traces(once, str(tmp_path / "runner.py")) == 1, once.summary()
