"""`confirm` tells a library from the user's code wherever the library is installed.

A library installed with ``pip install --target``, put on PYTHONPATH or laid out by Bazel is not under
site-packages (seen on an accelerator machine whose flax and equinox lay in such a folder: their own jit
functions were reported as RTL901 sites in flax's files). Its jit wrapper must be seen through to the
user's function, as it is for a library in site-packages.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from limits import HANG_S

pytest.importorskip(
    "jax", reason="retracelint confirm needs jax (pip install 'retracelint[confirm]')"
)

LIBRARY = '''\
import jax


def compiled(fn):
    """Like equinox's filter_jit: the function JAX traces is the library's own."""

    def run(*args):
        return fn(*args)

    return jax.jit(run)
'''

PROGRAM = """\
import jax.numpy as jnp
import wrapjit


def loss(x):
    return (x * x).sum()


step = wrapjit.compiled(loss)
for n in (4, 8, 16):
    print(float(step(jnp.ones(n))))
"""


def test_a_library_on_pythonpath_is_not_the_users_code(tmp_path: Path) -> None:
    libs, project = tmp_path / "libs", tmp_path / "project"
    (libs / "wrapjit").mkdir(parents=True)
    (libs / "wrapjit" / "__init__.py").write_text(LIBRARY, encoding="utf-8")
    (libs / "wrapjit-1.0.dist-info").mkdir()
    (libs / "wrapjit-1.0.dist-info" / "METADATA").write_text("Name: wrapjit\n", encoding="utf-8")
    project.mkdir()
    (project / "train.py").write_text(PROGRAM, encoding="utf-8")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(libs), os.environ.get("PYTHONPATH", "")]),
    }
    out = tmp_path / "report.json"
    command = [sys.executable, "-m", "retracelint", "confirm", "--guard", "all", "--backend", "cpu"]
    command += ["--format", "json", "-o", str(out), ".", "--", sys.executable, "train.py"]
    subprocess.run(command, cwd=project, env=env, capture_output=True, timeout=HANG_S, check=False)
    [site] = json.loads(out.read_text(encoding="utf-8"))["unpredicted"]
    assert (site["path"], site["line"], site["retraces"]) == ("train.py", 5, 2)
