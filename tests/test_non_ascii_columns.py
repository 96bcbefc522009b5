"""Columns on lines with non-ASCII text before the call: an accented name, a string with an arrow or an
emoji. Findings count characters (code points); ``ast`` counts UTF-8 bytes, and the analysis reads every
tree in characters (``retracelint.summarise.columns``), so that a finding's place and the code it names
compare as they are. Each case is run beside the same code in ASCII: the same findings, at the same
characters, with the same fixes. (The server's positions in UTF-16 or UTF-8: tests/test_server.py.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from project_runs import checked, written

from retracelint.summarise.columns import parse

FIXTURES = Path(__file__).parent / "fixtures"

REBUILT = """import jax
import jax.numpy as jnp


def run(xs):
    total = 0.0
    for x in xs:
        {name} = jax.jit(lambda v: v * 2.0)
        total = total + {name}(x)
    return total


print(run([jnp.ones(3)] * 4))
"""


@pytest.mark.parametrize("name", ["step", "étape"])
def test_a_jit_rebuilt_in_a_loop_is_fixed_at_its_own_span(tmp_path: Path, name: str) -> None:
    """RTL301's fix finds the ``jax.jit`` call by the finding's span: after ``étape = `` it used to
    look seven bytes too far and leave the file as it was ("no jit call at the finding's position")."""
    root = written(tmp_path / "p", {"loop.py": REBUILT.format(name=name)})
    line = REBUILT.format(name=name).splitlines()[7]
    code, out = checked(root, "--output-format", "json")
    (finding,) = json.loads(out)
    assert (finding["code"], finding["line"], finding["col"]) == (
        "RTL301",
        8,
        line.index("jax") + 1,
    )
    assert finding["end_col"] == len(line) + 1
    code, out = checked(root, "--fix")
    assert code == 0 and "not fixed" not in out, out
    fixed = (root / "loop.py").read_text(encoding="utf-8")
    assert f"        {name} = jitted\n" in fixed
    assert "jitted = jax.jit(lambda v: v * 2.0)\n" in fixed


@pytest.mark.parametrize(("solve", "smooth"), [("solve", "smooth"), ("résoudre", "lissé")])
def test_a_jit_chosen_by_a_flag_after_an_accented_name_is_still_seen(
    tmp_path: Path, solve: str, smooth: str
) -> None:
    """``résoudre = jax.jit(_solve) if jit else _solve``: the jitted arm is found by where the jit
    site starts, so the nested def of the scan that only the eager arm (``jit`` false) re-traces
    stays unproven, and the one the eager arm takes by default stays proven."""
    root = tmp_path / "solves"
    shutil.copytree(FIXTURES / "solves_chosen_jitted_or_eager", root)
    runner = root / "runner.py"
    text = runner.read_text(encoding="utf-8")
    for old, new in (
        ("    solve = ", f"    {solve} = "),
        ("= solve(", f"= {solve}("),
        ("    smooth = ", f"    {smooth} = "),
        ("jnp.sum(smooth(", f"jnp.sum({smooth}("),
    ):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    runner.write_text(text, encoding="utf-8")
    planning = (root / "planning.py").read_text(encoding="utf-8").splitlines()
    refine = next(n for n, line in enumerate(planning, 1) if "unproven: RTL301" in line)
    blend = next(n for n, line in enumerate(planning, 1) if "expect: RTL301" in line)
    _, shown = checked(root, "--output-format", "json")
    assert [(f["line"], f["code"]) for f in json.loads(shown)] == [(blend, "RTL301")]
    _, every = checked(root, "--output-format", "json", "--confidence", "all")
    assert sorted((f["line"], f["confidence"]) for f in json.loads(every)) == [
        (refine, "low"),
        (blend, "high"),
    ]


WIDE = """from functools import partial

import jax


@partial(jax.jit, static_argnames=("n",))
def scaled(x, n):
    return x * n


def run(x):
    for n in range(8):
        print({label}, scaled(x, n=n))
"""


def _line(label: str) -> str:
    return WIDE.format(label=label).splitlines()[12]


@pytest.mark.parametrize("label", ['"epoch ->"', '"époque → 🚀"'])
def test_every_output_counts_the_columns_in_characters(tmp_path: Path, label: str) -> None:
    """The static argument ``n`` of ``scaled(x, n=n)`` after a string with an accent, an arrow and
    an emoji (four bytes in UTF-8, two code units in UTF-16): one column in text, JSON, SARIF
    (``columnKind`` code points) and GitHub annotations; a noqa comment and a baseline still apply."""
    root = written(tmp_path / "p", {"train.py": WIDE.format(label=label)})
    line = _line(label)
    col = line.index("n=n)") + 3  # the value passed, 1-based
    _, text = checked(root)
    assert f"train.py:13:{col}: RTL201" in text
    (finding,) = json.loads(checked(root, "--output-format", "json")[1])
    assert (finding["line"], finding["col"], finding["end_col"]) == (13, col, col + 1)
    sarif = json.loads(checked(root, "--output-format", "sarif")[1])
    run = sarif["runs"][0]
    region = run["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert run["columnKind"] == "unicodeCodePoints"
    assert (region["startLine"], region["startColumn"], region["endColumn"]) == (13, col, col + 1)
    github = checked(root, "--output-format", "github")[1]
    assert f"line=13,endLine=13,col={col},endColumn={col + 1}" in github
    checked(root, "--write-baseline", str(tmp_path / "baseline.json"))
    assert checked(root, "--baseline", str(tmp_path / "baseline.json"))[0] == 0
    source = root / "train.py"
    source.write_text(
        source.read_text(encoding="utf-8").replace(line, line + "  # noqa: RTL201"),
        encoding="utf-8",
    )
    assert checked(root)[0] == 0


def test_every_node_of_a_parsed_tree_counts_characters() -> None:
    """Against ``ast``'s own (bytes): each node's columns are its bytes' characters, on lines of
    names, strings and comments in other scripts, decorators above a definition, CRLF endings and a
    form feed; an ASCII file's tree is ``ast``'s as it is."""
    import ast

    text = (
        "@décorer('→')\r\n"
        "def f(données, *, 名前=1):  # コメント\r\n"
        '    return {"clé": données[名前], "x": f"{données!r} 🚀"}\x0c + g(1)\n'
        "h = [ä for ä in 'αβγ' if ä]\n"
    )
    for ours, theirs in zip(ast.walk(parse(text)), ast.walk(ast.parse(text)), strict=True):
        if not hasattr(theirs, "lineno"):
            continue
        lines = text.replace("\r\n", "\n").split("\n")
        for line, col, byte in (
            (ours.lineno, ours.col_offset, theirs.col_offset),
            (ours.end_lineno, ours.end_col_offset, theirs.end_col_offset),
        ):
            assert len(lines[line - 1][:col].encode("utf-8")) == byte, ast.dump(ours)
    ascii_text = "def f(x):\n    return x[1:]\n"
    assert ast.dump(parse(ascii_text), include_attributes=True) == ast.dump(
        ast.parse(ascii_text), include_attributes=True
    )
