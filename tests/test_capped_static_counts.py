"""A static iteration count that every store keeps under a cap (an adaptive solver retried
``while err > tol and n_iter < cap``, reset to a constant, or ``min(2 * n, cap)``) takes a few
values however long the run: each traced once, a warning, not an error (round 23, S1). The same
count stepped with no cap grows with the run: an error."""

from __future__ import annotations

from pathlib import Path

from project_runs import checked, written

KERNELS = """import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def krylov_norm(v, n_iter):
    basis = jnp.zeros((n_iter, v.shape[0]))
    return jnp.linalg.norm(basis.at[0].set(v))
"""

DRIVER = """import jax.numpy as jnp

from flow.kernels import krylov_norm


def simulate(v, num_steps):
    n_iter = 2
    for step in range(num_steps):
        err = krylov_norm(v, int(n_iter))
        while err > 1e-3 and n_iter < 150:
            n_iter += 20
            err = krylov_norm(v, int(n_iter))
        if step % 100 == 0:
            n_iter = 5
    return v


def refine(v, num_steps):
    depth = 4
    for _ in range(num_steps):
        err = krylov_norm(v, depth)
        if err > 1e-3:
            depth = min(depth * 2, 64)
    return v
"""

RUN = """import jax.numpy as jnp

from flow.driver import refine, simulate

simulate(jnp.ones(16), 1000)
refine(jnp.ones(16), 1000)
"""


def _findings(tmp_path: Path, driver: str) -> tuple[int, list[str]]:
    """The exit code, and each finding as ``path:line:col: code [severity] message`` up to its
    ``, so``."""
    files = {
        "flow/__init__.py": "",
        "flow/kernels.py": KERNELS,
        "flow/driver.py": driver,
        "run.py": RUN,
    }
    code, out = checked(written(tmp_path / "proj", files))
    lines = [line.split("/proj/", 1)[1] for line in out.splitlines() if "/proj/" in line]
    return code, [line.split(", so")[0] for line in lines]


def test_counts_kept_under_a_cap_are_warnings(tmp_path: Path) -> None:
    assert _findings(tmp_path, DRIVER) == (
        1,
        [
            "flow/driver.py:9:30: RTL201 [warning] static argument int(n_iter) changes in the loop at line 8",
            "flow/driver.py:12:34: RTL201 [warning] static argument int(n_iter) changes in the loop at line 10",
            "flow/driver.py:21:30: RTL201 [warning] static argument depth changes in the loop at line 20",
        ],
    )


def test_counts_stepped_without_a_cap_are_errors(tmp_path: Path) -> None:
    driver = DRIVER.replace(" and n_iter < 150", "").replace("min(depth * 2, 64)", "depth * 2")
    assert _findings(tmp_path, driver) == (
        1,
        [
            "flow/driver.py:9:30: RTL201 static argument int(n_iter) changes in the loop at line 8",
            "flow/driver.py:12:34: RTL201 static argument int(n_iter) changes in the loop at line 10",
            "flow/driver.py:21:30: RTL201 static argument depth changes in the loop at line 20",
        ],
    )
