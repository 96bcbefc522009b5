"""Environment switches spelled as real code spells them. Round 29, NEO_JAX's ``fourier.py:228`` and
``integrate.py:1194`` (RTL301, 1-paths): ``mode = os.getenv("NAME", "vectorized").strip().lower()``
then ``if mode == "streamed":`` (or ``in ("streamed", ...)``) decides against the streamed branch
unless the variable is set, as the bare ``os.getenv(...) == ...`` does; and a test that sets the
variable (``monkeypatch.setenv``) sets it for that test only, not for a driver's path. Kept: a
default that takes the branch once normalised (``"JAX"`` tested as ``"jax"``), and a variable a
script of the project sets."""

from __future__ import annotations

from pathlib import Path

from project_runs import findings_in

_FOURIER = """\
import os

import jax
import jax.numpy as jnp


def _sums_streamed(theta, modes):
    def body(k, acc):
        return acc + jnp.cos(modes[k] * theta)

    return jax.lax.fori_loop(0, modes.shape[0], body, jnp.zeros_like(theta))


def _sums_vectorized(theta, modes):
    return jnp.sum(jnp.cos(modes[:, None] * theta[None, :]), axis=0)


def fourier_sums(theta, modes):
    \"\"\"Set FLUX_FOURIER_MODE=streamed to save memory.\"\"\"
    mode = os.getenv("FLUX_FOURIER_MODE", "vectorized").strip().lower()
    if mode in ("streamed", "stream"):
        return _sums_streamed(theta, modes)
    return _sums_vectorized(theta, modes)
"""

_DRIVER = """\
import os

import jax
import jax.numpy as jnp

from .fourier import fourier_sums


def bounce_jax(b):
    def step(acc, x):
        return acc + x, acc

    return jax.lax.scan(step, 0.0, b)


def bounce_python(b):
    return float(jnp.sum(b))


def run(surfaces, write_diagnostic=False):
    backend = os.getenv("FLUX_DIAGNOSTIC_BACKEND", "BACKEND").strip().lower()
    out = []
    for s in surfaces:
        theta = jnp.linspace(0.0, 6.28, 64) * (s + 1)
        b = fourier_sums(theta, jnp.arange(1.0, 9.0))
        if write_diagnostic and backend == "jax":
            out.append(bounce_jax(b))
        else:
            out.append(bounce_python(b))
    return out
"""

_TEST = """\
import jax.numpy as jnp

from fluxlib.fourier import fourier_sums


def test_streamed_matches_vectorized(monkeypatch):
    theta = jnp.linspace(0.0, 6.28, 16)
    modes = jnp.arange(1.0, 4.0)
    expected = fourier_sums(theta, modes)
    monkeypatch.setenv("FLUX_FOURIER_MODE", "streamed")
    assert jnp.allclose(fourier_sums(theta, modes), expected)
"""

_RUN = """\
import os

from fluxlib.driver import run

SETUP
run(range(5), write_diagnostic=True)
"""


def _findings(root: Path, backend: str, setup: str = "") -> list[tuple]:
    texts = {
        "pyproject.toml": "",
        "fluxlib/__init__.py": "",
        "fluxlib/fourier.py": _FOURIER,
        "fluxlib/driver.py": _DRIVER.replace("BACKEND", backend),
        "tests/test_modes.py": _TEST,
        "run_all.py": _RUN.replace("SETUP", setup),
    }
    found = findings_in(root, texts)
    return [(f["path"], f["line"], f["code"]) for f in found]


def test_normalised_environment_reads_at_their_defaults_switch_branches_off(tmp_path: Path) -> None:
    assert _findings(tmp_path, "python") == []


def test_a_default_that_takes_the_branch_and_a_scripts_setting_stay_proven(tmp_path: Path) -> None:
    setup = 'os.environ["FLUX_FOURIER_MODE"] = "streamed"'
    assert _findings(tmp_path, " JAX ", setup) == [
        ("fluxlib/driver.py", 13, "RTL301"),
        ("fluxlib/fourier.py", 11, "RTL301"),
    ]
