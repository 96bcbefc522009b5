"""One project whatever the invocation, and errors a user can act on.

Each test is a way a user calls retracelint: one file, an editor's buffer on standard input, the files a
pre-commit hook passes, two sibling experiment folders, a `scripts/` folder driving `src/` code. The
findings for a file are those of its whole project, whichever of these it is. Mistakes in flags and
configuration are errors that name the value, never a silent run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from limits import HANG_S
from test_cli import write
from test_fixtures import expectations

from retracelint.cli import main
from retracelint.config import Settings
from retracelint.engine import analyse

REPO = Path(__file__).parent.parent
# Every marked bug of the example projects (the trainer, and the NNX and equinox trainers).
EXAMPLE_MARKERS = expectations(REPO / "examples")
LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>RTL\d{3}) (?P<message>.+)$")
FLAKE8 = [sys.executable, "-m", "flake8", "--isolated", "--select", "RTL"]
RETRACELINT = [sys.executable, "-c", "from retracelint.cli import run; run()"]


def lint(*args: str) -> Result:
    return CliRunner().invoke(main, ["--no-cache", *args])


def findings(result: Result) -> list[tuple[str, int, str]]:
    """(path, line, code) of each finding line, in order."""
    out = []
    for text in result.stdout.splitlines():
        match = LINE.match(text)
        assert match, f"not a finding line: {text!r}"
        out.append((match["path"], int(match["line"]), match["code"]))
    return out


@pytest.fixture(autouse=True)
def _plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clone of this repository's examples: a pyproject.toml (no retracelint table) at the top,
    the buggy example project and its fixed copy, which define the same package `trainer`."""
    root = tmp_path / "repo"
    shutil.copytree(REPO / "examples", root / "examples")
    shutil.copytree(REPO / "examples_fixed", root / "examples_fixed")
    write(root, {"pyproject.toml": '[project]\nname = "demo"\n'})
    monkeypatch.chdir(root)
    return root


# -- one file, its project's findings --------------------------------------------------------------
def test_one_file_reports_what_flake8_reports_for_it_byte_for_byte(repo: Path) -> None:
    target = "examples/trainer/train.py"
    cli = lint(target)
    plugin = subprocess.run([*FLAKE8, target], cwd=repo, capture_output=True, text=True)
    assert cli.exit_code == plugin.returncode == 1, (cli.stderr, plugin.stderr)
    # The loop in train.py feeds jitted functions defined in optim.py: both need the project. The
    # chunks data.batches() slices in its loop are made in data.py, and the jits rebuilt by each
    # call of optim.clip_by_global_norm() and evaluate.validation_loss() in optim.py and
    # evaluate.py: each is shown at its call in train.py.
    codes = [line.split(" ")[1] for line in cli.stdout.splitlines()]
    assert codes == ["RTL103", "RTL201", "RTL301", "RTL202", "RTL301"]
    # flake8 has no severities, and no fixes to mark as ruff marks them ([*])
    assert cli.stdout.replace(" [warning] ", " ").replace(" [*] ", " ") == plugin.stdout


def shown(*args: str) -> list[tuple[str, int, str, str | None]]:
    """(path, line, code, the path:line it is made at when shown elsewhere) of each finding."""
    result = lint("--format", "json", *args)
    out = []
    for found in json.loads(result.stdout):
        made = found["origin"]
        origin = f"{made['path']}:{made['line']}" if made else None
        out.append((found["path"], found["line"], found["code"], origin))
    return out


def test_a_file_reports_the_findings_in_it_of_its_whole_project(repo: Path) -> None:
    whole = lint("--format", "json", "examples")
    made = {(f["path"], f["line"], f["code"]): f for f in json.loads(whole.stdout)}
    assert len(made) == len(EXAMPLE_MARKERS)
    for path in sorted({path for path, _, _ in made}):
        one = shown(path)
        # What is made in the file, as the whole run finds it...
        here = [(f["path"], f["line"], f["code"]) for f in json.loads(whole.stdout)]
        assert [f[:3] for f in one if f[3] is None] == [k for k in here if k[0] == path]
        # ...and what is made elsewhere, at the first call on its path that is in the file.
        for at, line, code, origin in one:
            if origin is None:
                continue
            where, number = origin.rsplit(":", 1)
            steps = made[(where, int(number), code)]["call_path"]
            first = next(s for s in steps if s["path"] == path)
            assert (at, line) == (first["path"], first["line"])


def test_files_passed_as_a_hook_passes_them_get_their_projects_findings(repo: Path) -> None:
    staged = ["examples/trainer/train.py", "examples/trainer/data.py", "examples/run.py"]
    whole = findings(lint("examples"))
    hook = shown(*staged)
    assert [f[:3] for f in hook if f[3] is None] == [f for f in whole if f[0] in staged]
    # evaluate.py and optim.py are not staged: the loop in run.py slices what
    # evaluate.subset_accuracy() passes on, and the loop in train.py repeats the calls that rebuild
    # jits there.
    # (The slices of x and y there are one re-trace: one finding, the other its ``related``.)
    moved = [f for f in hook if f[3] is not None]
    assert moved == [
        ("examples/run.py", 27, "RTL101", "examples/trainer/evaluate.py:54"),
        ("examples/trainer/train.py", 28, "RTL301", "examples/trainer/optim.py:36"),
        ("examples/trainer/train.py", 35, "RTL301", "examples/trainer/evaluate.py:47"),
    ]
    assert {code for _, _, code, _ in hook} == {"RTL101", "RTL103", "RTL201", "RTL202", "RTL301"}


def test_a_second_copy_of_a_package_does_not_hide_the_findings_of_the_first(repo: Path) -> None:
    alone = findings(lint("examples"))
    both = findings(lint("examples", "examples_fixed"))
    assert both == alone and len(set(both)) == len(EXAMPLE_MARKERS)
    assert findings(lint(".")) == alone  # examples_fixed has no bug


def test_standard_input_is_analysed_within_its_project(repo: Path) -> None:
    target = "examples/trainer/train.py"
    source = (repo / target).read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["--no-cache", "-", "--stdin-filename", target], input=source)
    assert result.exit_code == 1
    assert findings(result) == findings(lint(target))
    codes = [code for _, _, code in findings(result)]
    assert codes == ["RTL103", "RTL201", "RTL301", "RTL202", "RTL301"]


# -- two modules of one name -------------------------------------------------------------------------
MODEL_STATIC = """\
from functools import partial

import jax


@partial(jax.jit, static_argnums=(1,))
def forward(x, depth):
    return x * depth
"""

MODEL_TRACED = """\
import jax


@jax.jit
def forward(x, depth):
    return x * depth
"""

RUN = """\
import jax.numpy as jnp

import model


def main():
    x = jnp.ones(3)
    for depth in range(100):
        model.forward(x, depth)


main()
"""


@pytest.fixture
def experiments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two sibling experiment folders, each a script with its own `model.py`: only exp1's model has a
    static `depth`, so only exp1/run.py re-traces."""
    root = write(
        tmp_path / "lab",
        {
            "exp1/model.py": MODEL_STATIC,
            "exp1/run.py": RUN,
            "exp2/model.py": MODEL_TRACED,
            "exp2/run.py": RUN,
        },
    )
    (root / ".git").mkdir()
    monkeypatch.chdir(root)
    return root


def test_sibling_experiments_import_their_own_model(experiments: Path) -> None:
    expected = [("exp1/run.py", 9, "RTL201")]
    assert findings(lint(".")) == expected
    assert findings(lint("exp1")) == expected
    assert findings(lint("exp1/run.py")) == expected
    assert findings(lint("exp2")) == []
    result = lint("--output-format", "full", ".")
    assert "jitted 'forward'" in result.stdout
    assert "  jit site: exp1/model.py:7: forward (" in result.stdout


def test_a_script_run_from_its_own_folder_names_files_from_there(
    experiments: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(experiments / "exp1")
    result = lint("run.py")
    assert findings(result) == [("run.py", 9, "RTL201")]
    full = lint("--output-format", "full", "run.py").stdout
    assert "  jit site: model.py:7: forward (jax.jit), parameter 'depth'\n" in full


SRC_MODEL = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("steps",))
def rollout(x, steps):
    for _ in range(steps):
        x = jnp.tanh(x)
    return x
"""

SCRIPT = """\
import jax.numpy as jnp

from mypkg.model import rollout


def main():
    x = jnp.ones(4)
    for steps in range(1, 50):
        rollout(x, steps=steps)


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize("table", [True, False], ids=["with-table", "without-table"])
def test_a_script_driving_src_code_is_linked_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: bool
) -> None:
    pyproject = '[project]\nname = "mypkg"\n' + ("[tool.retracelint]\n" if table else "")
    root = write(
        tmp_path / "proj",
        {
            "pyproject.toml": pyproject,
            "src/mypkg/__init__.py": "",
            "src/mypkg/model.py": SRC_MODEL,
            "scripts/train.py": SCRIPT,
        },
    )
    monkeypatch.chdir(root / "scripts")
    assert findings(lint("train.py")) == [("train.py", 9, "RTL201")]
    monkeypatch.chdir(root)
    assert findings(lint("scripts/train.py")) == [("scripts/train.py", 9, "RTL201")]


def test_isolated_analyses_only_the_paths_given(experiments: Path) -> None:
    assert findings(lint("--isolated", "exp1/run.py")) == []  # model.py is not among them
    assert findings(lint("--isolated", "exp1")) == [("exp1/run.py", 9, "RTL201")]


# -- mistakes are errors that say what to change ---------------------------------------------------
@pytest.mark.parametrize("value", ["XYZ", "RTL9999", "RTL2O1", "R"])
def test_an_unknown_rule_selector_is_an_error_naming_it(experiments: Path, value: str) -> None:
    for option in ("--select", "--ignore", "--extend-select"):
        result = lint(option, value, ".")
        assert result.exit_code == 2
        assert result.stdout == ""
        assert f"error: {option}: unknown rule code or prefix '{value}'" in result.stderr
        assert "RTL1, RTL2" in result.stderr  # the prefixes that exist


def test_all_selects_every_rule_as_in_ruff(experiments: Path) -> None:
    result = lint("--select", "ALL", ".")
    assert result.exit_code == 1
    assert findings(result) == [("exp1/run.py", 9, "RTL201")]


@pytest.mark.parametrize(
    ("files", "says"),
    [
        (
            {"pyproject.toml": '[tool.retracelint]\nselect = ["RTL2O1"]\n'},
            "pyproject.toml: option 'select': unknown rule code or prefix 'RTL2O1'",
        ),
        (
            {"setup.cfg": '[retracelint]\nselect = ["RTL2"]\n'},
            "setup.cfg: option 'select': unknown rule code or prefix '[\"RTL2\"]'",
        ),
        (
            {"pyproject.toml": "[tool.retracelint]\nignore = [1, 2]\n"},
            "pyproject.toml: option 'ignore': expected a list of strings, got [1, 2]",
        ),
        (
            {"pyproject.toml": "[tool.retracelint]\njobs = -3\n"},
            "pyproject.toml: option 'jobs': expected a whole number of at least 0, got -3",
        ),
        (
            {"pyproject.toml": '[tool.retracelint]\nper-file-ignores = {"a.py" = ["RTL7"]}\n'},
            "pyproject.toml: option 'per-file-ignores': unknown rule code or prefix 'RTL7'",
        ),
        (
            {"pyproject.toml": '[tool.retracelint]\nexit-zero = "maybe"\n'},
            "pyproject.toml: option 'exit-zero': expected true or false, got 'maybe'",
        ),
    ],
    ids=["select-typo", "setup-cfg-list", "ignore-ints", "negative-jobs", "per-file", "bool"],
)
def test_a_bad_configuration_value_names_the_file_and_the_key(
    experiments: Path, files: dict[str, str], says: str
) -> None:
    write(experiments, files)
    result = lint(".")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("retracelint: error: ")
    assert says in result.stderr


def test_a_config_file_without_the_table_is_an_error(experiments: Path) -> None:
    write(experiments, {"ci.toml": 'select = ["RTL1"]\n'})
    result = lint("--config", "ci.toml", ".")
    assert result.exit_code == 2 and result.stdout == ""
    assert "ci.toml: no retracelint configuration here: expected a [tool.retracelint] table" in (
        result.stderr
    )


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--per-file-ignores", "bogus", "."], "error: --per-file-ignores: expected PATTERN:CODES"),
        (["-o", "nowhere/at/all.txt", "."], "error: cannot write nowhere/at/all.txt:"),
        (["--write-baseline", "nowhere/b.json", "."], "error: cannot write nowhere/b.json:"),
    ],
    ids=["per-file-ignores", "output-file", "baseline"],
)
def test_user_mistakes_are_errors_not_internal_errors(
    experiments: Path, args: list[str], says: str
) -> None:
    result = lint(*args)
    assert result.exit_code == 2
    assert says in result.stderr and "internal error" not in result.stderr


def test_a_mistyped_command_is_an_error_unless_such_a_path_exists(experiments: Path) -> None:
    result = CliRunner().invoke(main, ["chek", "exp1"])
    assert result.exit_code == 2 and result.stdout == ""
    assert "no such command or path: 'chek'" in result.stderr
    assert "did you mean 'check'?" in result.stderr
    (experiments / "chek").mkdir()
    assert CliRunner().invoke(main, ["chek"]).exit_code == 0  # a folder of that name is a path


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["chek"], "no such command or path: 'chek' (commands: check, rules, rule, graph,"),
        (
            ["--bogus", "."],
            "No such option '--bogus'. Did you mean '--jobs'? (see 'retracelint check",
        ),
        (["--select", "RTL2O1", "."], "--select: unknown rule code or prefix 'RTL2O1'"),
        (
            ["--format", "xml", "."],
            "Invalid value for '--format' / '--output-format': 'xml' is not",
        ),
        (["check", "-j", "-3"], "Invalid value for '-j' / '--jobs': -3 is not in the range x>=0."),
        (["rule"], "Missing argument 'CODE'. (see 'retracelint rule --help')"),
        (["rule", "RTL999"], "unknown rule 'RTL999' (see `retracelint rules`)"),
        (["graph", "--json", "."], "--json needs --calls"),
        (
            ["graph", "--nope"],
            "No such option '--nope'. Did you mean '--no-cache'? (see 'retracelint",
        ),
        (["confirm", "--guard", "some"], "Invalid value for '--guard': 'some' is not one of"),
    ],
)
def test_every_usage_error_is_one_line_in_one_style(
    experiments: Path, args: list[str], says: str
) -> None:
    """click's own errors (an unknown option, a bad value) read as retracelint's: one line on
    standard error, `retracelint: error: ...`, exit 2; not a usage block ending in `Error: ...`."""
    result = CliRunner().invoke(main, args)
    assert (result.exit_code, result.stdout) == (2, "")
    (line,) = result.stderr.splitlines()
    assert line.startswith("retracelint: error: ") and says in line, line


def test_a_folder_without_python_files_says_so(experiments: Path) -> None:
    (experiments / "empty").mkdir()
    result = lint("empty")
    assert result.exit_code == 0 and result.stdout == ""
    assert "retracelint: no Python files found under empty" in result.stderr


def test_graph_reports_what_it_cannot_analyse_as_check_does(experiments: Path) -> None:
    write(experiments, {"broken.py": "def f(:\n"})
    for args in (["nope/"], ["broken.py"], ["--calls", "--json", "nope/"]):
        result = CliRunner().invoke(main, ["graph", "--no-cache", *args])
        assert result.exit_code == 1, args
        assert re.search(r"^(nope|broken\.py):1:\d+: RTL000 ", result.stderr, re.M), args
    drawn = CliRunner().invoke(main, ["graph", "--no-cache", "exp1"])
    assert drawn.exit_code == 0 and drawn.stderr == ""


def test_statistics_keep_a_json_report_valid(experiments: Path) -> None:
    result = lint("--format", "json", "--statistics", ".")
    assert [row["code"] for row in json.loads(result.stdout)] == ["RTL201"]
    assert result.stderr.split() == ["1", "RTL201", "loop-varying-static-arg"]


# -- messages ------------------------------------------------------------------------------------------
def test_each_message_is_a_short_headline_what_when_which_jit_and_the_fix(repo: Path) -> None:
    result = lint("examples")
    messages = {}
    for text in result.stdout.splitlines():
        match = LINE.match(text)
        assert match is not None
        message = match["message"].removeprefix("[warning] ")
        if text.startswith("examples/trainer/"):
            messages.setdefault(match["code"], message)
        # What changes and when, which jit re-traces (", so ..."), the fix in a few words ("; ..."):
        # short, as flake8's and ruff's messages are; the details are in --output-format full.
        # A bounded one ends with its bound in a few words: "(bounded: one per item of `starts`)".
        assert re.fullmatch(r"[^;]+(, so |, so calling )[^;]+; [^;]+", message), message
        assert len(message.partition(" (bounded: ")[0].partition(" (at most ")[0]) <= 135, message
        assert len(message) <= 180, message
    # The jitted function as the code calls it: `predict_logits = jax.jit(forward)`.
    assert messages["RTL104"] == (
        "boolean mask x[y == c] changes size in the loop at line 59, so jitted 'predict_logits'"
        " re-traces; mask it, or pass size= (bounded: one per item of `range(cfg.num_classes)`)"
    )
    # One finding for the call that both chunks reach: the second named as cut like the first.
    assert messages["RTL103"] == (
        "last chunks x[start : start + batch_size] and y[...] can be shorter, so jitted 'train_step'"
        " re-traces; drop or pad it"
    )
    # The loop in another file than the value: its file is named; the call path is in the details.
    # The slice of y beside it is the same re-trace: named, and kept as the finding's ``related``.
    assert messages["RTL101"] == (
        "slice x[:n] changes shape in the loop at examples/run.py:26, so jitted 'accuracy_on'"
        " re-traces; pad or bucket it (and 1 more: 'y')"
    )
    full = lint("--output-format", "full", "examples/trainer/evaluate.py").stdout
    assert "\n  call path:\n    examples/run.py:27: evaluate.subset_accuracy(...)\n" in full
    assert "\n  loop: examples/run.py:26: for n in range(30, cfg.num_test + 1, 30)\n" in full
    # README's sample output is what these two commands print.
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    concise_sample, full_sample = re.findall(r"```\n(examples/.*?)```", readme, re.S)[:2]
    assert set(concise_sample.splitlines()) <= set(result.stdout.splitlines())
    assert full_sample in full


CONFIG_STATIC = """\
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class Config:
    lr: float
    depth: int


@partial(jax.jit, static_argnums=(1,))
def step(x, cfg):
    return x * cfg.lr


def main():
    x = jnp.ones(3)
    for epoch in range(100):
        step(x, Config(lr=0.1, depth=2 + epoch % 4))


main()
"""


def test_the_fix_for_a_static_config_object_fits_an_object(experiments: Path) -> None:
    write(experiments, {"tune/train.py": CONFIG_STATIC})
    result = lint("tune")
    assert findings(result) == [("tune/train.py", 22, "RTL201")]
    message = LINE.match(result.stdout.strip())["message"]  # type: ignore[index]
    assert message.endswith("; build it once, outside the loop")
    full = lint("--output-format", "full", "tune").stdout
    assert (
        "  fix: build the object once, outside the loop, or pass the fields that change as traced"
        " arguments\n" in full
    )
    assert "make the parameter traced" not in full


def test_graph_nodes_are_places_in_their_own_file_and_edges_name_the_rule(repo: Path) -> None:
    result = CliRunner().invoke(main, ["graph", "--no-cache", "examples"])
    assert result.exit_code == 0
    rules = {code for _, _, code in findings(lint("examples"))}
    labels = re.findall(r'^    n\d+\["([^"]+)"\]', result.stdout, re.M)
    for label in labels:
        match = re.fullmatch(r"(?P<function>.+) \((?P<path>[^ ()]+):\d+\)|[^ ()]+:\d+", label)
        assert match, label
        if match["function"]:
            module = match["path"].removesuffix(".py").replace("/", ".")
            parts = match["function"].split(".")
            assert any(module.endswith(".".join(parts[:k])) for k in range(1, len(parts))), label
    # The slice in evaluate.py is made in a file the path's first function (run.main) is not in.
    assert "examples/trainer/evaluate.py:54" in labels
    edges = re.findall(r'-->\|"([^"]+)"\|', result.stdout)
    assert {edge.split(":")[0] for edge in edges if edge.startswith("RTL")} == rules
    assert len(rules) == 9


# -- no fork of a process that runs jax's threads ---------------------------------------------------
FORK_CHECK = """\
import shutil, sys, warnings
from pathlib import Path

import jax.numpy as jnp

jnp.ones(2).block_until_ready()  # a backend runs: jax's threads are up, its fork hook installed
from retracelint.config import Settings
from retracelint.engine import analyse

tree = Path(sys.argv[1])
for i in range(4):
    shutil.copytree(sys.argv[2], tree / f"copy{i}")
with warnings.catch_warnings():
    warnings.simplefilter("error")
    run = analyse([str(tree)], Settings(cache=False, jobs=2))
print(len(run.findings))
"""


def test_workers_are_not_forked_from_a_process_running_jax(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    proc = subprocess.run(
        [sys.executable, "-c", FORK_CHECK, str(tmp_path / "tree"), str(REPO / "examples")],
        capture_output=True,
        text=True,
        timeout=HANG_S,
        env={**os.environ, "JAX_PLATFORMS": "cpu"},
    )
    assert "fork" not in proc.stderr, proc.stderr
    assert proc.returncode == 0, proc.stderr
    alone = analyse([str(REPO / "examples")], Settings(cache=False, jobs=1))
    assert proc.stdout.strip() == str(4 * len(alone.findings))


def test_confirm_says_a_missing_path_as_check_does_and_writes_output_file(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    report = tmp_path / "report.txt"
    proc = subprocess.run(
        [
            *RETRACELINT,
            "confirm",
            "nope/",
            "--output-file",
            str(report),
            "--",
            sys.executable,
            "-c",
            "print('ran')",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=HANG_S,
    )
    assert "nope:1:1: RTL000 " in proc.stderr, proc.stderr
    assert "ran" in proc.stdout
    assert "0 findings" in report.read_text(encoding="utf-8")
