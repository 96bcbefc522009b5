"""The whole-file fixes (issue 41) as a user meets them: ``check --fix`` / ``--diff`` / ``--unsafe-fixes``
on the rule pages' flagged examples and on a project split over modules, ruff's marks and summaries, the
reasons a fix is not made; and, where jax is installed, JAX's word that each fixed page example traces its
jitted function once and prints what the flagged one printed."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner, Result
from dynamic_support import count_retraces_many
from rule_pages import load_pages

from retracelint import config
from retracelint.cli import main

if TYPE_CHECKING:
    from lsprotocol.types import TextEdit

    from retracelint.model import Finding

PAGES = {page.code: page for page in load_pages() if page.executable}
# The pages whose flagged example --fix --unsafe-fixes rewrites so that it traces once, and the
# lines it changes (before → after).
FIXED_PAGES = {
    "RTL202": [("@partial(jax.jit, static_argnums=2)", "@jax.jit")],
    "RTL204": [  # unsafe: one Config shared by every iteration
        ("for step in range(3):", "config_2 = Config(2.0)\nfor step in range(3):"),
        ("config=Config(2.0)", "config=config_2"),
    ],
    "RTL301": [
        (
            "for step in range(4):",
            "jitted = jax.jit(lambda p: p - 0.1 * jnp.sign(p))\nfor step in range(4):",
        ),
        (
            "params = jax.jit(lambda p: p - 0.1 * jnp.sign(p))(params)",
            "params = jitted(params)",
        ),
    ],
    "RTL401": [("print(clip(x, 1.5))", "print(clip(x, jnp.asarray(1.5, jnp.float32)))")],
    "RTL405": [  # unsafe: every matmul of the program at the highest precision
        (
            "import jax.numpy as jnp\n",
            'import jax.numpy as jnp\n\n\njax.config.update("jax_default_matmul_precision", "highest")\n',
        )
    ],
}


def lint(*args: str) -> Result:
    return CliRunner().invoke(main, ["check", "--isolated", "--no-cache", *args])


@pytest.fixture
def pages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for code in FIXED_PAGES:
        (tmp_path / f"{code.lower()}.py").write_text(PAGES[code].flagged_source, encoding="utf-8")
    (tmp_path / "rtl201.py").write_text(PAGES["RTL201"].flagged_source, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def expected_after(code: str) -> str:
    text = PAGES[code].flagged_source
    for before, after in FIXED_PAGES[code]:
        assert text.count(before) == 1
        text = text.replace(before, after)
    return text


def test_fix_rewrites_the_pages_examples_and_unsafe_only_when_asked(pages: Path) -> None:
    safe = lint("--fix", *(f"{c.lower()}.py" for c in FIXED_PAGES))
    assert (pages / "rtl202.py").read_text() == expected_after("RTL202")
    assert (pages / "rtl301.py").read_text() == expected_after("RTL301")
    for code in ("RTL204", "RTL401", "RTL405"):  # unsafe: not yet
        assert (pages / f"{code.lower()}.py").read_text() == PAGES[code].flagged_source
    # ruff's summary under the report, and the hint at the fixes --unsafe-fixes would make
    assert safe.stderr.splitlines()[-2:] == [
        "Found 5 errors (2 fixed, 3 remaining).",
        "No fixes available (3 hidden fixes can be enabled with the `--unsafe-fixes` option).",
    ]
    assert safe.exit_code == 1
    unsafe = lint("--fix", "--unsafe-fixes", "rtl204.py", "rtl401.py", "rtl405.py")
    for code in ("RTL204", "RTL401", "RTL405"):
        assert (pages / f"{code.lower()}.py").read_text() == expected_after(code)
    assert unsafe.stderr.splitlines()[-1] == "Found 3 errors (3 fixed, 0 remaining)."
    assert unsafe.exit_code == 0
    again = lint("--fix", "--unsafe-fixes", *(f"{c.lower()}.py" for c in FIXED_PAGES))
    assert again.exit_code == 0 and again.stdout == ""  # fixed for good, and idempotent
    for code in FIXED_PAGES:
        assert (pages / f"{code.lower()}.py").read_text() == expected_after(code)


def test_text_output_marks_what_fix_fixes_as_ruff_does(pages: Path) -> None:
    result = lint("rtl202.py", "rtl401.py", "rtl201.py")
    lines = result.stdout.splitlines()
    assert [line.split(": ", 1)[1].split(" ", 2)[:2] for line in lines] == [
        ["RTL201", "[warning]"],  # no fix (the body needs it static)
        ["RTL202", "[*]"],
        ["RTL401", "[warning]"],  # its fix is unsafe: hidden
    ]
    assert result.stderr.splitlines() == [
        "Found 3 errors.",
        "[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes`"
        " option).",
    ]
    unsafe = lint("--unsafe-fixes", "rtl401.py")
    assert ": RTL401 [*] [warning] " in unsafe.stdout
    assert unsafe.stderr.splitlines()[-1] == "[*] 1 fixable with the `--fix` option."


def test_a_fix_that_cannot_be_proved_leaves_the_file_and_says_why(pages: Path) -> None:
    result = lint("--diff", "rtl201.py")
    assert result.stdout == ""
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        "retracelint: rtl201.py:14:30: RTL201 not fixed: step must stay static: line 9 passes it"
        " to min",
        "No errors would be fixed.",
    ]
    assert (pages / "rtl201.py").read_text() == PAGES["RTL201"].flagged_source


MODEL = '''\
"""The model: jitted steps."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("lr", "axis"))
def sgd(params, grads, lr, axis):
    # the learning rate only scales: it can be traced
    scaled = lr * grads
    return params - jnp.mean(scaled, axis=axis)


def _loss(w, x):
    return jnp.sum((x @ w) ** 2)


def gradient(w, x):
    grad = jax.jit(jax.grad(_loss))  # rebuilt at every call
    return grad(w, x)
'''

TRAIN = """\
import jax.numpy as jnp

from model import gradient, sgd


def train(w, x, lr=0.1):
    for epoch in range(3):
        g = gradient(w, x)
        w = sgd(w, g[None], lr, axis=0)
        lr = lr * 0.5  # decay
    return w


print(train(jnp.ones(2), jnp.ones((4, 2))))
"""


def test_fix_rewrites_where_the_function_is_jitted_in_another_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "model.py").write_text(MODEL, encoding="utf-8")
    (tmp_path / "train.py").write_text(TRAIN, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    before = json.loads(lint("--output-format", "json", ".").stdout)
    assert sorted((f["path"], f["code"]) for f in before) == [
        ("model.py", "RTL301"),
        ("train.py", "RTL202"),
    ]
    diff = lint("--diff", ".")
    assert diff.exit_code == 1
    assert diff.stderr.splitlines()[-1] == "Would fix 2 errors."
    result = lint("--fix", ".")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "train.py").read_text() == TRAIN  # the call is left as it is
    fixed = (tmp_path / "model.py").read_text()
    # 'lr' is traced now; 'axis' gives jnp.mean an axis, so it stays static
    assert '@partial(jax.jit, static_argnames="axis")' in fixed
    # built once, at module level after what it closes over; the comment stays
    assert "\n\n\nloss_grad_jit = jax.jit(jax.grad(_loss))\n\n\ndef gradient(w, x):" in fixed
    assert "    grad = loss_grad_jit  # rebuilt at every call\n" in fixed
    assert "# the learning rate only scales: it can be traced" in fixed
    compile(fixed, "model.py", "exec")


# -- JAX's word -----------------------------------------------------------------------------------------
needs_jax = pytest.mark.skipif(
    importlib.util.find_spec("jax") is None, reason="jax is not installed"
)
_PRINTS = """
import contextlib, io, json, runpy, sys
out = []
for path in sys.argv[1:]:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        runpy.run_path(path, run_name="__main__")
    out.append(buffer.getvalue())
print(json.dumps(out))
"""


@needs_jax
def test_jax_traces_each_fixed_page_example_once_and_it_prints_the_same(pages: Path) -> None:
    lint("--fix", "--unsafe-fixes", *(f"{c.lower()}.py" for c in FIXED_PAGES))
    flagged = []
    for code in FIXED_PAGES:
        flagged.append(pages / f"{code.lower()}_flagged.py")
        flagged[-1].write_text(PAGES[code].flagged_source, encoding="utf-8")
    fixed = [pages / f"{code.lower()}.py" for code in FIXED_PAGES]
    reports = count_retraces_many(fixed, cwd=pages)
    for code, report in zip(FIXED_PAGES, reports, strict=True):
        assert not report.raised, report.summary()
        assert report.traces and report.total_retraces == 0, (code, report.summary())
    printed = subprocess.run(
        [sys.executable, "-c", _PRINTS, *map(str, flagged + fixed)],
        cwd=pages,
        capture_output=True,
        text=True,
        check=True,
        env={"JAX_PLATFORMS": "cpu", "PATH": "/usr/bin:/bin"},
    )
    outputs = json.loads(printed.stdout.splitlines()[-1])
    assert outputs[: len(flagged)] == outputs[len(flagged) :]


def test_the_editor_offers_the_same_rewrites_as_quick_fixes(pages: Path) -> None:
    """The language server's code action for a finding is the edit --fix makes for it alone: one edit
    of the lines between the first and the last that change (a hoist adds a line)."""
    pytest.importorskip("lsprotocol")
    from retracelint.engine import analyse
    from retracelint.server import fix_edit, quick_fix

    def quick_edit(finding: Finding, source: str) -> TextEdit | None:
        fix = quick_fix(finding, lambda _path: source.encode(), unsafe=True)
        workspace = None if fix is None else fix_edit(fix, {}, document_changes=False)
        if workspace is None or workspace.changes is None:
            return None
        ((edit,),) = workspace.changes.values()
        return edit

    settings = config.load([str(pages)], isolated=True)
    for code in ("RTL202", "RTL301", "RTL401"):
        name = f"{code.lower()}.py"
        source = (pages / name).read_text(encoding="utf-8")
        (finding,) = analyse([name], settings).findings
        edit = quick_edit(finding, source)
        assert edit is not None, code
        lines = source.splitlines(keepends=True)
        start, end = edit.range.start, edit.range.end
        assert start.character == end.character == 0
        edited = "".join(lines[: start.line]) + edit.new_text + "".join(lines[end.line :])
        assert edited == expected_after(code), code
    assert (
        quick_edit(analyse(["rtl201.py"], settings).findings[0], PAGES["RTL201"].flagged_source)
        is None
    )


EVALUATE = """\
from functools import partial

import jax
import jax.numpy as jnp


class Settings:
    def __init__(self, threshold):
        self.threshold = threshold


@partial(jax.jit, static_argnames="settings")
def score(x, settings):
    return jnp.mean(x > settings.threshold)


x = jnp.arange(4.0)
for step in range(3):
    settings = Settings(threshold=0.5)  # same values, a new object each time
    print(score(x - step, settings=settings))
"""


def test_a_fresh_static_object_is_made_once_only_with_unsafe_fixes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "evaluate.py").write_text(EVALUATE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    safe = lint("--fix", "evaluate.py")
    assert (tmp_path / "evaluate.py").read_text() == EVALUATE
    assert ": RTL204 " in safe.stdout
    assert safe.stderr.splitlines()[-1].startswith("No fixes available (1 hidden fix")
    unsafe = lint("--fix", "--unsafe-fixes", "evaluate.py")
    assert unsafe.exit_code == 0, unsafe.output
    fixed = (tmp_path / "evaluate.py").read_text()
    assert "\nSETTINGS = Settings(threshold=0.5)\nfor step in range(3):\n" in fixed
    assert "    settings = SETTINGS  # same values, a new object each time\n" in fixed


AGENT = """\
import jax
import jax.numpy as jnp


def log_probs(params, obs):
    return jax.nn.log_softmax(obs @ params)


class Agent:
    def __init__(self, params):
        self.params = params

    def update(self, obs, acts):
        @jax.jit
        def loss_and_grads(params, obs, acts):
            def loss(p):  # the chosen actions' log-probabilities
                return -jnp.mean(jnp.take_along_axis(log_probs(p, obs), acts[:, None], axis=1))

            return jax.value_and_grad(loss)(params)

        loss, grads = loss_and_grads(self.params, obs, acts)
        self.params = self.params - 0.1 * grads
        return loss


agent = Agent(jnp.zeros((3, 2)))
for step in range(3):
    print(agent.update(jnp.ones((4, 3)) * step, jnp.zeros(4, jnp.int32)))
"""


def test_a_jitted_nested_def_that_closes_over_nothing_moves_to_module_level(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "agent.py").write_text(AGENT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = lint("--fix", "agent.py")
    assert result.exit_code == 0, result.output
    fixed = (tmp_path / "agent.py").read_text()
    moved = AGENT[AGENT.index("        @jax.jit") : AGENT.index("        loss, grads")]
    assert fixed.replace(moved, "") == AGENT.replace(moved, "").replace(
        "\n\nclass Agent:", "\n\n" + textwrap.dedent(moved) + "\nclass Agent:"
    )
    assert lint("--fix", "agent.py").stdout == ""  # nothing left, and the file stays as it is
    assert (tmp_path / "agent.py").read_text() == fixed


def test_codemods_read_each_expression_as_ast_gives_its_source() -> None:
    """``Source.code`` splits the file once, not once per node as ``ast.get_source_segment`` does
    (text output asks every finding's codemod): the same text, across CRLF and LF endings, a form
    feed inside a line, non-ASCII text and expressions over several lines. Its tree counts columns
    in characters (``columns.parse``), ``ast``'s own in UTF-8 bytes: both give each node one text."""
    import ast

    from retracelint.fixes.base import Source
    from retracelint.summarise.columns import parse

    text = (
        "def step(x, scale):\r\n"
        '    note = "page\x0cbreak"  # « ε »\r\n'
        "    y = jnp.sum(x * scale,\r\n"
        "                axis=0)  # é\n"
        '    return {"clé": [y,\n'
        "        note]}\n"
    )
    tree = parse(text)
    source = Source(text, tree)
    for node, as_ast in zip(ast.walk(tree), ast.walk(ast.parse(text)), strict=True):
        assert source.code(node) == (ast.get_source_segment(text, as_ast) or ""), ast.dump(node)
