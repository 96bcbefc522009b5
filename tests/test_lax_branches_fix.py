"""An eager ``lax.cond`` handed lambdas that read its function's arguments cannot be fixed by
defining them once (they would need those arguments passed in): the fix is to jit the function or
its caller. Lambdas that take what they use as operands can be defined once, and the fix says so.
The eager lax calls one loop repeats are one cause (the code it calls runs outside jit): one
finding, naming the others; another loop's are another (issue 36, round 25 S4: a board-game
environment stepped unjitted by a trainer, five errors for one cause)."""

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


def reward(pos):
    return lax.cond(pos == 0, lambda: 1.0, lambda: pos * 0.5)
"""

_SCORE = """\
import jax.numpy as jnp
from env import reward


def replay(positions):
    return [reward(p) for p in positions]


if __name__ == "__main__":
    replay(jnp.arange(100))
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
    (tmp_path / "replay.py").write_text(_SCORE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _findings() -> list[dict]:
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", "."])
    return [f for f in json.loads(result.stdout) if f["code"] == "RTL301"]


def _told(findings: list[dict]) -> dict[tuple[str, int], str]:
    """Every finding's message, those another tells (``related``) included, by the call path's
    head (the teller's) and line."""
    out = {}
    for f in findings:
        head = f["call_path"][0]["function"]
        for g in (f, *f["related"]):
            out[(head, g["line"])] = g["message"]
    return out


def test_branches_over_the_arguments_ask_for_a_jit_not_a_hoist(project: Path) -> None:
    found = _told(_findings())
    for line, name in ((8, "wrap"), (16, "observe")):
        assert f"; call {name}() from inside a jitted function" in found[("play.episode", line)]
    replay = next(f for f in _findings() if f["call_path"][0]["function"] == "replay.replay")
    assert "cannot be defined once" in replay["fix"]


def test_branches_given_their_operand_can_still_be_defined_once(project: Path) -> None:
    told = _told(_findings())[("play.episode", 12)]
    assert told.endswith("; define lambda s: s * 2, lambda s: -s once")


def test_one_finding_per_loop_that_runs_the_lax_calls_eagerly(project: Path) -> None:
    shown = {(f["call_path"][0]["function"], f["line"]): f for f in _findings()}
    assert sorted(shown) == [("play.episode", 8), ("replay.replay", 20)]
    episode = shown[("play.episode", 8)]
    assert episode["message"].endswith("(and 2 more: clip_score(), observe())")
    assert sorted(r["line"] for r in episode["related"]) == [12, 16]
    assert shown[("replay.replay", 20)]["related"] == []
