"""A decorator factory of the project that returns ``functools.partial(jax.jit, ...)`` (a
"configured wrapper", issue 36 cause 3; round 23, F4): ``@jit_with(static_argnames=[...])`` is a
jit, with the static arguments the call gives it, so what its function calls runs under a trace."""

from __future__ import annotations

from pathlib import Path

from project_runs import checked, written

JITTING = '''import functools

import jax


def jit_with(static_argnames=None, donate_argnums=()):
    """Jit with the project's settings."""
    return functools.partial(jax.jit, static_argnames=static_argnames, donate_argnums=donate_argnums)
'''

RAYS = """import jax
import jax.numpy as jnp


@jax.jit
def near_far(bound, origins, directions):
    return (bound - origins) / directions, (-bound - origins) / directions
"""

RENDER = """import jax.numpy as jnp

from optics.jitting import jit_with
from optics.rays import near_far


@jit_with(static_argnames=["n_samples"])
def train_rays(origins, directions, bound, n_samples):
    near, far = near_far(bound=bound, origins=origins, directions=directions)
    return jnp.sum(far - near) * n_samples


def render_image(origins, directions, bound):
    near, far = near_far(bound, origins, directions)
    return far - near
"""

RUN = """import jax.numpy as jnp

from optics.render import render_image, train_rays

x = jnp.ones(3)
for step in range(100):
    train_rays(x, x, 1.0, n_samples=SAMPLES)
    render_image(x, x, 1.0)
"""


def _project(tmp_path: Path, render: str = RENDER, samples: str = "4") -> Path:
    return written(
        tmp_path / "proj",
        {
            "optics/__init__.py": "",
            "optics/jitting.py": JITTING,
            "optics/rays.py": RAYS,
            "optics/render.py": render,
            "run.py": RUN.replace("SAMPLES", samples),
        },
    )


def test_a_call_inside_a_function_jitted_through_a_factory_is_traced_not_eager(
    tmp_path: Path,
) -> None:
    """The keyword call runs only while ``train_rays`` traces, so only the positional call
    compiles ``near_far``: no pair of ways to compare it with."""
    assert checked(_project(tmp_path)) == (0, "")


def test_the_same_pair_made_by_two_eager_calls_is_reported_once(tmp_path: Path) -> None:
    """Without the factory's jit, both calls run eagerly: two cache entries, told once for the
    call (at its last argument, which ``--fix`` passes by keyword first), naming all three."""
    render = RENDER.replace('@jit_with(static_argnames=["n_samples"])\n', "")
    code, out = checked(_project(tmp_path, render))
    assert code == 1
    findings = [line for line in out.splitlines() if "RTL404" in line]
    assert len(findings) == 1
    assert (
        "render.py:13:42: RTL404 [*] [warning] 'directions' (and 'bound', 'origins') is passed by"
        " position here and by keyword at line 8, so jitted 'near_far' compiles twice"
    ) in findings[0]


def test_the_factorys_static_argnames_reach_the_jit(tmp_path: Path) -> None:
    """``n_samples`` is static through the factory: a new value per step re-traces."""
    code, out = checked(_project(tmp_path, samples="step"))
    assert code == 1
    assert (
        "run.py:7:37: RTL201 static argument step changes in the loop at line 6, so jitted 'train_rays'"
        in out
    ), out


def test_fix_passes_every_argument_of_the_call_by_keyword(tmp_path: Path) -> None:
    """One finding for the call, and ``--fix`` rewrites each argument, round by round."""
    render = RENDER.replace('@jit_with(static_argnames=["n_samples"])\n', "")
    folder = _project(tmp_path, render)
    checked(folder, "--fix")
    fixed = (folder / "optics" / "render.py").read_text(encoding="utf-8")
    assert (
        "near_far(bound=bound, origins=origins, directions=directions)"
        in fixed.split("def render_image")[1]
    )
    assert checked(folder) == (0, "")
