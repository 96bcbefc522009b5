"""Configuration files as users write them: ``[tool.retracelint]`` in pyproject.toml and ``[retracelint]``
in setup.cfg, found by walking up from the analysed paths; keys that mirror the flags; per-file ignores;
extra jit wrappers; and one clear error (exit 2, naming the file and the key) for a bad file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from retracelint.cli import main

LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>RTL\d{3}) ")

TRAIN = """\
from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def train_step(params, batch):
    return params - 0.1 * jnp.mean(batch, axis=0)


@partial(jax.jit, static_argnums=(1,))
def rollout(x, horizon):
    for _ in range(horizon):
        x = jnp.tanh(x)
    return x


def fit(params, data, epochs):
    for epoch in range(1, epochs):
        params = train_step(params, data[:epoch])
        rollout(params, epoch)
    return params
"""

# A project-local jit helper and a third-party one, neither known to retracelint by default.
WRAPPED = """\
from functools import partial

import jax.numpy as jnp
from mylib.compile import fast_jit, staged


@fast_jit(static_argnames=("depth",))
def forward(x, depth):
    for _ in range(depth):
        x = jnp.tanh(x)
    return x


@partial(staged, frozen=(1,))
def rollout(x, horizon):
    return x * horizon


def sweep(x):
    for depth in range(1, 6):
        forward(x, depth)
        rollout(x, depth)
"""


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return root


def found(result: Result) -> set[tuple[str, str]]:
    """(path, code) of each finding line."""
    out = set()
    for line in result.stdout.splitlines():
        match = LINE.match(line)
        if match:
            out.add((match["path"], match["code"]))
    return out


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    return CliRunner()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """repo/project/{src,tests}, run from repo/ (the folder above the configured project)."""
    write(
        tmp_path,
        {
            "project/src/app/__init__.py": "",
            "project/src/app/train.py": TRAIN,
            "project/tests/test_train.py": TRAIN,
        },
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def lint(runner: CliRunner, *args: str) -> Result:
    return runner.invoke(main, ["check", "--no-cache", *args])


BOTH = {"RTL101", "RTL201"}


# -- discovery -------------------------------------------------------------------------------------
def test_pyproject_table_is_found_by_walking_up_from_the_paths(
    repo: Path, runner: CliRunner
) -> None:
    write(repo, {"project/pyproject.toml": '[tool.retracelint]\nselect = ["RTL2"]\n'})
    result = lint(runner, "project/src/app/train.py")
    assert found(result) == {("project/src/app/train.py", "RTL201")}


def test_the_paths_decide_where_the_walk_starts_not_the_cwd(
    repo: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(repo, {"project/pyproject.toml": '[tool.retracelint]\nselect = ["RTL2"]\n'})
    elsewhere = repo / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = lint(runner, str(repo / "project" / "src"))
    assert found(result) == {(str(repo / "project/src/app/train.py"), "RTL201")}


def test_setup_cfg_section_is_found_by_walking_up(repo: Path, runner: CliRunner) -> None:
    write(
        repo,
        {"project/setup.cfg": "[flake8]\nmax-line-length = 100\n\n[retracelint]\nselect = RTL2\n"},
    )
    result = lint(runner, "project/src")
    assert found(result) == {("project/src/app/train.py", "RTL201")}


def test_files_without_a_retracelint_section_do_not_stop_the_walk(
    repo: Path, runner: CliRunner
) -> None:
    write(
        repo,
        {
            "pyproject.toml": '[tool.retracelint]\nselect = ["RTL2"]\n',
            "project/pyproject.toml": '[project]\nname = "app"\n\n[tool.ruff]\nline-length = 100\n',
            "project/setup.cfg": "[metadata]\nname = app\n",
        },
    )
    assert {code for _, code in found(lint(runner, "project/src"))} == {"RTL201"}


def test_the_nearest_configuration_wins(repo: Path, runner: CliRunner) -> None:
    write(
        repo,
        {
            "pyproject.toml": '[tool.retracelint]\nselect = ["RTL2"]\n',
            "project/setup.cfg": "[retracelint]\nselect = RTL1\n",
        },
    )
    assert {code for _, code in found(lint(runner, "project/src"))} == {"RTL101"}


def test_pyproject_wins_over_setup_cfg_in_the_same_folder(repo: Path, runner: CliRunner) -> None:
    write(
        repo,
        {
            "project/pyproject.toml": '[tool.retracelint]\nselect = ["RTL2"]\n',
            "project/setup.cfg": "[retracelint]\nselect = RTL1\n",
        },
    )
    assert {code for _, code in found(lint(runner, "project/src"))} == {"RTL201"}


def test_isolated_ignores_and_config_names_the_file(repo: Path, runner: CliRunner) -> None:
    write(
        repo,
        {
            "project/pyproject.toml": '[tool.retracelint]\nselect = ["RTL2"]\n',
            "ci/retracelint.toml": '[tool.retracelint]\nselect = ["RTL1"]\n',
        },
    )
    isolated = lint(runner, "--isolated", "project/src")
    assert {code for _, code in found(isolated)} == BOTH
    explicit = lint(runner, "--config", "ci/retracelint.toml", "project/src")
    assert {code for _, code in found(explicit)} == {"RTL101"}
    missing = lint(runner, "--config", "ci/nope.toml", "project/src")
    assert missing.exit_code == 2
    assert "ci/nope.toml" in missing.stderr


# -- keys mirror the flags -------------------------------------------------------------------------
KEYS = [
    ('select = ["RTL1"]', {"RTL101"}),
    ('ignore = ["RTL201"]', {"RTL101"}),
    ('select = ["RTL2"]\nextend-select = ["RTL101"]', BOTH),
    ('select = ["RTL", "RTL101"]\nignore = ["RTL1"]', BOTH),
    ('select = "RTL2"', {"RTL201"}),
]


@pytest.mark.parametrize(
    ("table", "expected"), KEYS, ids=[table.replace("\n", " ") for table, _ in KEYS]
)
def test_selection_keys(repo: Path, runner: CliRunner, table: str, expected: set[str]) -> None:
    write(repo, {"project/pyproject.toml": f"[tool.retracelint]\n{table}\n"})
    assert {code for _, code in found(lint(runner, "project/src"))} == expected


def test_command_line_flags_override_the_file(repo: Path, runner: CliRunner) -> None:
    write(
        repo,
        {"project/pyproject.toml": '[tool.retracelint]\nselect = ["RTL2"]\nformat = "json"\n'},
    )
    assert lint(runner, "project/src").stdout.lstrip().startswith("[")
    result = lint(runner, "--select", "RTL1", "--format", "text", "project/src")
    assert found(result) == {("project/src/app/train.py", "RTL101")}


def test_output_exit_and_statistics_keys(repo: Path, runner: CliRunner) -> None:
    write(
        repo,
        {
            "project/pyproject.toml": (
                '[tool.retracelint]\noutput-format = "json"\nexit-zero = true\nstatistics = false\n'
            )
        },
    )
    result = lint(runner, "project/src")
    assert result.exit_code == 0
    assert result.stdout.lstrip().startswith("[")
    write(
        repo,
        {"project/setup.cfg": "[retracelint]\nstatistics = yes\nexit-zero = off\n"},
    )
    (repo / "project" / "pyproject.toml").unlink()
    counted = lint(runner, "project/src")
    assert counted.exit_code == 1
    assert re.search(r"^1\s+RTL201 loop-varying-static-arg$", counted.stdout, re.MULTILINE)


def test_exclude_keys(repo: Path, runner: CliRunner) -> None:
    write(
        repo,
        {
            "project/pyproject.toml": '[tool.retracelint]\nextend-exclude = ["tests"]\n',
            "project/build/gen_train.py": TRAIN,
        },
    )
    paths = {path for path, _ in found(lint(runner, "project"))}
    assert paths == {"project/src/app/train.py"}
    # `exclude` replaces the default list, so build/ comes back.
    write(repo, {"project/pyproject.toml": '[tool.retracelint]\nexclude = ["tests"]\n'})
    paths = {path for path, _ in found(lint(runner, "project"))}
    assert paths == {"project/src/app/train.py", "project/build/gen_train.py"}


def test_respect_gitignore_key(repo: Path, runner: CliRunner) -> None:
    write(
        repo,
        {
            "project/.gitignore": "tests/\n",
            "project/pyproject.toml": "[tool.retracelint]\n",
        },
    )
    assert {path for path, _ in found(lint(runner, "project"))} == {"project/src/app/train.py"}
    write(repo, {"project/pyproject.toml": "[tool.retracelint]\nrespect-gitignore = false\n"})
    assert len({path for path, _ in found(lint(runner, "project"))}) == 2


def test_max_file_size_key_skips_big_files_with_one_line(repo: Path, runner: CliRunner) -> None:
    write(repo, {"project/pyproject.toml": "[tool.retracelint]\nmax-file-size = 200\n"})
    result = lint(runner, "project/src")
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("project/src/app/train.py:1:1: RTL000 ")
    assert "large" in lines[0]


# -- per-file ignores ------------------------------------------------------------------------------
def test_per_file_ignores_in_pyproject(repo: Path, runner: CliRunner, monkeypatch) -> None:
    write(
        repo,
        {
            "project/pyproject.toml": (
                "[tool.retracelint.per-file-ignores]\n"
                '"tests/*" = ["RTL"]\n'
                '"src/app/train.py" = ["RTL201"]\n'
            )
        },
    )
    monkeypatch.chdir(repo / "project")
    assert found(lint(runner, ".")) == {("src/app/train.py", "RTL101")}


def test_per_file_ignores_in_setup_cfg_flake8_style(
    repo: Path, runner: CliRunner, monkeypatch
) -> None:
    write(
        repo,
        {
            "project/setup.cfg": (
                "[retracelint]\nper-file-ignores =\n    tests/*:RTL\n    src/app/train.py:RTL2,RTL3\n"
            )
        },
    )
    monkeypatch.chdir(repo / "project")
    assert found(lint(runner, ".")) == {("src/app/train.py", "RTL101")}


def test_per_file_ignores_from_the_file_and_the_flag_add_up(
    repo: Path, runner: CliRunner, monkeypatch
) -> None:
    write(
        repo,
        {
            "project/pyproject.toml": '[tool.retracelint]\nper-file-ignores = {"tests/*" = ["RTL"]}\n'
        },
    )
    monkeypatch.chdir(repo / "project")
    result = lint(runner, "--per-file-ignores", "src/*:RTL1", ".")
    assert found(result) == {("src/app/train.py", "RTL201")}


def test_per_file_ignores_with_a_space_after_the_colon(
    repo: Path, runner: CliRunner, monkeypatch
) -> None:
    write(repo, {"project/setup.cfg": "[retracelint]\nper-file-ignores =\n    tests/*: RTL\n"})
    monkeypatch.chdir(repo / "project")
    result = lint(runner, ".")
    assert result.exit_code == 1
    assert {path for path, _ in found(result)} == {"src/app/train.py"}


def test_per_file_ignores_are_relative_to_the_config_file(repo: Path, runner: CliRunner) -> None:
    write(
        repo,
        {
            "project/pyproject.toml": '[tool.retracelint]\nper-file-ignores = {"tests/*" = ["RTL"]}\n'
        },
    )
    # Run from the folder above the project, as a monorepo CI job or an editor would.
    assert {path for path, _ in found(lint(runner, "project"))} == {"project/src/app/train.py"}


def test_excludes_are_relative_to_the_config_file(
    repo: Path, runner: CliRunner, monkeypatch
) -> None:
    write(
        repo,
        {
            "project/pyproject.toml": '[tool.retracelint]\nextend-exclude = ["src/legacy"]\n',
            "project/src/legacy/old_train.py": TRAIN,
        },
    )
    monkeypatch.chdir(repo / "project" / "src")
    assert {path for path, _ in found(lint(runner, "."))} == {"app/train.py"}


# -- jit wrappers ----------------------------------------------------------------------------------
def test_jit_wrappers_make_findings_appear(repo: Path, runner: CliRunner) -> None:
    write(repo, {"project/src/app/sweep.py": WRAPPED})
    before = lint(runner, "project/src/app/sweep.py")
    assert (before.exit_code, before.stdout) == (0, "")
    write(
        repo,
        {
            "project/pyproject.toml": (
                "[tool.retracelint]\n"
                "jit-wrappers = [\n"
                '    "mylib.compile.fast_jit",\n'
                '    "mylib.compile.staged:frozen,",\n'
                "]\n"
            )
        },
    )
    after = lint(runner, "project/src/app/sweep.py")
    assert after.exit_code == 1
    lines = after.stdout.splitlines()
    assert [LINE.match(line)["code"] for line in lines] == ["RTL201", "RTL201"]  # type: ignore[index]
    assert "static argument depth changes " in lines[0] and "jitted 'forward' re-traces" in lines[0]
    assert "jitted 'rollout' re-traces" in lines[1]
    full = lint(runner, "--output-format", "full", "project/src/app/sweep.py").stdout
    assert ", parameter 'depth'" in full and ", parameter 'horizon'" in full


def test_jit_wrapper_defined_in_the_project_from_setup_cfg(repo: Path, runner: CliRunner) -> None:
    write(
        repo,
        {
            "project/src/app/jitutil.py": (
                "import jax\n\n\n"
                "def tracked_jit(fn=None, *, static_argnames=()):\n"
                "    if fn is None:\n"
                "        return lambda f: tracked_jit(f, static_argnames=static_argnames)\n"
                "    return jax.jit(fn, static_argnames=static_argnames)\n"
            ),
            "project/src/app/model.py": (
                "import jax.numpy as jnp\n\n"
                "from app.jitutil import tracked_jit\n\n\n"
                '@tracked_jit(static_argnames=("depth",))\n'
                "def forward(x, depth):\n"
                "    return jnp.tanh(x) * depth\n\n\n"
                "def sweep(x):\n"
                "    for depth in range(1, 6):\n"
                "        forward(x, depth)\n"
            ),
            "project/setup.cfg": "[retracelint]\njit-wrappers =\n    app.jitutil.tracked_jit\n",
        },
    )
    assert found(lint(runner, "project/src/app/model.py")) == {
        ("project/src/app/model.py", "RTL201")
    }
    # The flag does the same without a file.
    flagged = lint(
        runner, "--isolated", "--jit-wrapper", "app.jitutil.tracked_jit", "project/src/app/model.py"
    )
    assert found(flagged) == {("project/src/app/model.py", "RTL201")}


# -- bad configuration -----------------------------------------------------------------------------
BAD = [
    ("pyproject.toml", "[tool.retracelint]\nfrobnicate = 3\n", "frobnicate"),
    ("pyproject.toml", "[tool.retracelint]\nselect = 5\n", "select"),
    ("pyproject.toml", '[tool.retracelint]\nexit-zero = "maybe"\n', "exit-zero"),
    ("pyproject.toml", '[tool.retracelint]\njobs = "many"\n', "jobs"),
    ("pyproject.toml", "[tool.retracelint\nselect = []\n", "pyproject.toml"),
    ("setup.cfg", "[retracelint]\nselect = RTL2\nfrobnicate = 3\n", "frobnicate"),
    ("setup.cfg", "[retracelint]\nper-file-ignores = tests\n", "per-file-ignores"),
    pytest.param(
        "setup.cfg",
        "[retracelint\nselect = RTL2\n",
        "setup.cfg",
    ),
]


BAD_IDS = [
    "toml-unknown-key",
    "toml-select-not-a-list",
    "toml-exit-zero-not-a-bool",
    "toml-jobs-not-a-number",
    "toml-broken",
    "cfg-unknown-key",
    "cfg-per-file-ignores-without-codes",
    "cfg-broken",
]


@pytest.mark.parametrize(("name", "text", "key"), BAD, ids=BAD_IDS)
def test_bad_configuration_exits_2_naming_file_and_key(
    repo: Path, runner: CliRunner, name: str, text: str, key: str
) -> None:
    config = repo / "project" / name
    config.write_text(text, encoding="utf-8")
    result = lint(runner, "project/src")
    assert result.exit_code == 2
    assert result.stdout == ""
    [line] = result.stderr.strip().splitlines()
    assert str(config) in line
    assert key in line


def test_unknown_output_format_in_the_file_is_an_error(repo: Path, runner: CliRunner) -> None:
    write(repo, {"project/pyproject.toml": '[tool.retracelint]\nformat = "yaml"\n'})
    result = lint(runner, "project/src")
    assert result.exit_code == 2
    assert "format" in result.stderr
