"""An eager ``lax.cond`` handed lambdas that read its function's arguments cannot be fixed by
defining them once (they would need those arguments passed in): the fix is to jit the function or
its caller. Lambdas that take what they use as operands can be defined once, and the fix says so
(issue 36, round 25 S4: a board-game environment stepped unjitted by a trainer)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main

_ENV = """\
import jax.numpy as jnp
from jax import lax

SIZE = 8


def wrap(pos):
    return lax.cond(pos >= SIZE, lambda: pos - SIZE, lambda: pos)


def clip_score(score):
    return lax.cond(score > 0, lambda s: s * 2, lambda s: -s, score)


def observe(state):
    return lax.cond(state > SIZE // 2, lambda: jnp.ones(SIZE) * state, lambda: jnp.zeros(SIZE))
"""

_PLAY = """\
import jax.numpy as jnp
from env import clip_score, observe, wrap


def episode(moves):
    state, score = jnp.int32(0), jnp.float32(0)
    frames = []
    for action in moves:
        state = wrap(state + action)
        score = clip_score(score + state)
        frames.append(observe(state))
    return score, frames


def main():
    for _ in range(1000):
        episode(jnp.arange(20) % 3)


if __name__ == "__main__":
    main()
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "env.py").write_text(_ENV, encoding="utf-8")
    (tmp_path / "play.py").write_text(_PLAY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _findings() -> dict[int, dict]:
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", "."])
    return {f["line"]: f for f in json.loads(result.stdout) if f["code"] == "RTL301"}


def test_branches_over_the_arguments_ask_for_a_jit_not_a_hoist(project: Path) -> None:
    found = _findings()
    for line, name in ((8, "wrap"), (16, "observe")):
        assert found[line]["message"].endswith(f"; call {name}() from inside a jitted function")
        assert "cannot be defined once" in found[line]["fix"]


def test_branches_given_their_operand_can_still_be_defined_once(project: Path) -> None:
    found = _findings()
    assert found[12]["message"].endswith("; define lambda s: s * 2, lambda s: -s once")
    assert found[12]["fix"].startswith("define lambda s: s * 2 and lambda s: -s once")
