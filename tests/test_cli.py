"""The command line as a user runs it: output lines, exit codes, formats, selection, files, noqa, stdin.

Tests use click's CliRunner on ``retracelint.cli.main`` in a temporary project; a few start a real
process (``python -m retracelint``) where the process is what they check: its exit and output as a
whole, standard input, a parser crash it must outlive, a read that must not hang, its workers, the
modules it imports. Every run passes ``--no-cache`` so nothing is written
into the tree under test (one test checks exactly that).
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from limits import HANG_S

from retracelint.cli import main
from retracelint.rules import RULES

FIXTURES = Path(__file__).parent / "fixtures"
LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>RTL\d{3}) (?P<message>.+)$")
# CI sets these; they switch the default output to GitHub annotations.
_CI_VARIABLES = ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY")

TRAIN = '''\
"""Training script: one slice bug on its own line, a slice and a static argument on another."""

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
        rollout(data[: epoch * 2], epoch)
    return params
'''

CLEAN = '''\
"""The fixed version: full batches, a constant horizon."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(params, batch):
    return params - 0.1 * jnp.mean(batch, axis=0)


def fit(params, data, epochs, batch_size=32):
    n = data.shape[0]
    for _ in range(epochs):
        for start in range(0, n - n % batch_size, batch_size):
            params = train_step(params, data[start : start + batch_size])
    return params
'''

UNICODE = '''\
"""Non-ASCII text before the flagged expression: columns count characters, not bytes."""

import jax
import jax.numpy as jnp


@jax.jit
def étape(paramètres, lot):
    return paramètres - jnp.mean(lot)


def entraîner(paramètres, données):
    for i in range(1, 10):
        paramètres = étape(paramètres, données[:i])  # « préfixe »
    return paramètres
'''


# -- helpers ---------------------------------------------------------------------------------------
def write(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def at(root: Path, rel: str, needle: str, code: str, nth: int = 0) -> tuple[str, int, int, str]:
    """(path, line, col, code) of the ``nth`` occurrence of ``needle`` in file ``rel``, 1-based."""
    seen = 0
    text = (root / rel).read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), start=1):
        start = line.find(needle)
        while start >= 0:
            if seen == nth:
                return (rel, number, start + 1, code)
            seen += 1
            start = line.find(needle, start + 1)
    raise AssertionError(f"{needle!r} not found in {rel}")


def parsed(output: str) -> list[tuple[str, int, int, str]]:
    out = []
    for line in output.splitlines():
        match = LINE.match(line)
        assert match, f"not a finding line: {line!r}"
        out.append((match["path"], int(match["line"]), int(match["col"]), match["code"]))
    return out


def codes(output: str) -> list[str]:
    return [code for _, _, _, code in parsed(output)]


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    for name in _CI_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return CliRunner()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary project, made the working directory so that reported paths are relative."""
    write(tmp_path, {"train.py": TRAIN, "clean.py": CLEAN})
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def flow(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The three-module fixture (a loop in main.py, through two modules, to a jit in model.py), made
    the working directory."""
    root = FIXTURES / "three_module_flow"
    monkeypatch.chdir(root)
    return root


def lint(runner: CliRunner, *args: str, stdin: bytes | None = None) -> Result:
    """``retracelint check --no-cache ARGS``."""
    return runner.invoke(main, ["check", "--no-cache", *args], input=stdin)


def expected_train(root: Path, rel: str = "train.py") -> list[tuple[str, int, int, str]]:
    return [
        at(root, rel, "data[:epoch]", "RTL101"),
        at(root, rel, "data[: epoch * 2]", "RTL101"),
        at(root, rel, "epoch)", "RTL201", nth=0),
    ]


def subprocess_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _CI_VARIABLES}
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def run_process(
    *args: str, cwd: Path, stdin: bytes | None = None, timeout: float = HANG_S
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "retracelint", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        env=subprocess_env(),
        timeout=timeout,
    )


def said(stderr: str | bytes) -> str:
    """Standard error less ruff's summary under a report (``Found 3 errors.`` and the fix line after
    it: the train.py project's findings have a hidden fix), for tests about other messages."""
    text = stderr.decode() if isinstance(stderr, bytes) else stderr
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith("Found ") and i + 1 < len(lines):
            return "".join(lines[:i] + lines[i + 2 :])
    return text


# -- end to end -----------------------------------------------------------------------------------
def test_default_command_is_check_and_both_report_the_same(
    project: Path, runner: CliRunner
) -> None:
    """The command as a process runs it (``python -m retracelint``, which ends with ``os._exit`` once
    its output is written) prints what it prints run in-process, with or without ``check``."""
    plain = run_process("--no-cache", "train.py", "clean.py", cwd=project)
    check = lint(runner, "train.py", "clean.py")
    assert plain.returncode == check.exit_code == 1
    assert plain.stdout.decode() == check.stdout
    assert plain.stderr.decode() == check.stderr
    assert plain.stderr.decode().splitlines() == [
        "Found 3 errors.",
        "No fixes available (3 hidden fixes can be enabled with the `--unsafe-fixes` option).",
    ]
    assert sorted(parsed(plain.stdout.decode())) == sorted(expected_train(project))


def test_text_lines_are_flake8_style_with_exact_positions(project: Path, runner: CliRunner) -> None:
    write(project, {"unicode_names.py": UNICODE})
    result = lint(runner, ".")
    assert result.exit_code == 1
    text = result.stdout
    assert text.endswith("\n")
    expected = [*expected_train(project), at(project, "unicode_names.py", "données[:i]", "RTL101")]
    # Sorted by path, line, column; nothing for clean.py.
    assert parsed(text) == sorted(expected)


def test_non_ascii_columns_match_the_characters_an_editor_shows(
    project: Path, runner: CliRunner
) -> None:
    write(project, {"unicode_names.py": UNICODE})
    result = lint(runner, "--format", "json", "unicode_names.py")
    [finding] = json.loads(result.stdout)
    line = UNICODE.splitlines()[finding["line"] - 1]
    # col is 1-based, end_col exclusive: together they cut out exactly the flagged expression.
    assert line[finding["col"] - 1 : finding["end_col"] - 1] == "données[:i]"
    assert finding["end_line"] == finding["line"]


def test_message_names_origin_jit_site_parameter_path_and_fix(
    flow: Path, runner: CliRunner
) -> None:
    result = lint(runner, "--isolated", ".")
    assert result.exit_code == 1
    [line] = result.stdout.splitlines()
    path, number, col, code = parsed(line)[0]
    source = (flow / "main.py").read_text(encoding="utf-8").splitlines()
    assert (path, code) == ("main.py", "RTL101")
    assert source[number - 1].find("data[:window]") + 1 == col
    # The headline: what varies, when, which jit, the fix in a few words; short, as flake8's are.
    message = line.split(f" {code} ", 1)[1]
    assert message == (
        "slice data[:window] changes shape in the loop at line 15, so jitted 'train_step'"
        " re-traces; pad or bucket it"
    )


def test_full_format_prints_the_call_path_jit_site_loop_and_fix_under_the_headline(
    flow: Path, runner: CliRunner
) -> None:
    """``--output-format full``, as ruff's: the headline line as concise prints it, then each call from
    the loop to the jit (``path:line: call``), the jit site, the loop and the whole fix, indented."""
    concise = lint(runner, "--isolated", ".").stdout
    result = lint(runner, "--isolated", "--output-format", "full", ".")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        concise.rstrip("\n"),
        "  call path:",
        "    main.py:17: run_epoch(...)",
        "    epoch.py:10: step(...)",
        "    step.py:10: train_step(...)",
        "  jit site: model.py:16: train_step (jax.jit), parameter 'batch'",
        "  loop: main.py:15: for window in range(64, data.shape[0], 64)",
        "  fix: pad to a fixed size or bucket the lengths",
        "",
    ]
    # The older name of the default format prints what concise prints.
    text = lint(runner, "--isolated", "--format", "text", ".")
    assert text.stdout == concise


# -- exit codes ------------------------------------------------------------------------------------
def test_exit_codes_clean_findings_and_exit_zero(project: Path, runner: CliRunner) -> None:
    clean = lint(runner, "clean.py")
    assert (clean.exit_code, clean.stdout) == (0, "")
    dirty = lint(runner, "train.py")
    assert dirty.exit_code == 1
    assert len(dirty.stdout.splitlines()) == 3
    zero = lint(runner, "--exit-zero", "train.py")
    assert zero.exit_code == 0
    assert zero.stdout == dirty.stdout


def test_bad_option_is_a_usage_error(project: Path, runner: CliRunner) -> None:
    result = runner.invoke(main, ["--no-cache", "--frobnicate", "train.py"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "--frobnicate" in result.stderr
    bad_choice = runner.invoke(main, ["--no-cache", "--format", "xml", "train.py"])
    assert bad_choice.exit_code == 2
    assert "xml" in bad_choice.stderr


def test_missing_path_is_one_rtl000_line_and_the_rest_is_analysed(
    project: Path, runner: CliRunner
) -> None:
    result = lint(runner, "no_such_dir", "train.py")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    missing = [line for line in lines if line.startswith("no_such_dir:")]
    assert missing == [missing[0]]
    assert missing[0].startswith("no_such_dir:1:1: RTL000 ")
    assert sum(line.startswith("train.py:") for line in lines) == 3


NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": [
                "import jax\n",
                "import jax.numpy as jnp\n",
                "f = jax.jit(lambda x: x.sum())\n",
                "for n in range(1, 5):\n",
                "    f(jnp.ones(n))\n",
            ],
        }
    ],
    "metadata": {},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def test_a_notebook_named_is_said_on_stderr_and_the_rest_is_analysed(
    project: Path, runner: CliRunner
) -> None:
    """A notebook's JSON parses as one dict display, silently clean: it is named and skipped, and
    the exit code is the other files' (none left: clean)."""
    write(project, {"explore.ipynb": json.dumps(NOTEBOOK)})
    warning = (
        "retracelint: warning: explore.ipynb: skipped: a Jupyter notebook"
        " (export it: jupyter nbconvert --to script)\n"
    )
    both = lint(runner, "explore.ipynb", "train.py")
    assert both.exit_code == 1
    assert parsed(both.stdout) == expected_train(project)
    assert said(both.stderr) == warning
    clean = lint(runner, "clean.py", "explore.ipynb")
    assert (clean.exit_code, clean.stdout, clean.stderr) == (0, "", warning)
    alone = lint(runner, "explore.ipynb")
    assert (alone.exit_code, alone.stdout, alone.stderr) == (0, "", warning)
    # Found in a folder, it is not named: a folder's Python files are its *.py.
    assert said(lint(runner, ".").stderr) == ""


def test_a_file_named_that_is_not_python_is_read_as_python_as_ruff_does(
    project: Path, runner: CliRunner
) -> None:
    """An extension says nothing (scripts have none): a named file is Python, and one that is not
    is one RTL000 line naming it; the others are analysed."""
    write(project, {"notes.txt": "batch size: 32\n", "fit": TRAIN})
    result = lint(runner, "notes.txt", "fit")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("fit:") and len(lines) == 4
    assert lines[-1] == "notes.txt:1:7: RTL000 cannot parse: invalid syntax"
    assert said(result.stderr) == ""


def test_bad_config_exits_2_with_one_line_naming_the_file(project: Path, runner: CliRunner) -> None:
    write(project, {"pyproject.toml": "[tool.retracelint]\nselect = [\n"})
    result = lint(runner, "train.py")
    assert result.exit_code == 2
    assert result.stdout == ""
    err = result.stderr.strip().splitlines()
    assert len(err) == 1
    assert str(project / "pyproject.toml") in err[0]


def test_internal_errors_do_not_look_like_findings(
    project: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    import retracelint.engine

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("simulated crash")

    monkeypatch.setattr(retracelint.engine, "analyse", boom)
    result = lint(runner, "train.py")
    assert result.exit_code == 2
    assert "simulated crash" in result.stderr
    assert result.stdout == ""


# -- JSON ------------------------------------------------------------------------------------------
def test_json_carries_every_field_as_data(project: Path, runner: CliRunner) -> None:
    result = lint(runner, "--format", "json", "train.py")
    assert result.exit_code == 1
    findings = json.loads(result.stdout)
    assert [(f["path"], f["line"], f["col"], f["code"]) for f in findings] == sorted(
        expected_train(project)
    )
    fields = {
        "path", "line", "col", "end_line", "end_col", "code", "severity", "message",
        "jit_site", "parameter", "call_path", "fix", "details",
    }  # fmt: skip
    for finding in findings:
        assert fields <= finding.keys()
        assert finding["severity"] in ("error", "warning", "info")
        # The headline ends with the fix in a few words; the whole fix and the details are fields.
        short = finding["message"].rpartition("; ")[2]
        assert finding["fix"] and short and len(short) <= len(finding["fix"])
        assert all(isinstance(detail, str) for detail in finding["details"])
        site = finding["jit_site"]
        assert site["path"] == "train.py"
        assert {"function", "name", "wrapper", "line", "col"} <= site.keys()
        assert finding["call_path"], "a finding must say how the value reaches the jit"
        for step in finding["call_path"]:
            assert {"function", "call", "path", "line", "col"} <= step.keys()
            assert isinstance(step["line"], int) and step["line"] >= 1
    by_code = {}
    for finding in findings:
        by_code.setdefault(finding["code"], finding)
    slice_finding, static_finding = by_code["RTL101"], by_code["RTL201"]
    assert slice_finding["jit_site"]["name"] == "train_step"
    assert slice_finding["parameter"] == "batch"
    assert static_finding["jit_site"]["name"] == "rollout"
    assert static_finding["jit_site"]["static_params"] == ["horizon"]
    assert static_finding["parameter"] == "horizon"
    # The text and JSON outputs are the same findings.
    text = lint(runner, "train.py").stdout.splitlines()
    assert [
        f"{f['path']}:{f['line']}:{f['col']}: {f['code']} {f['message']}" for f in findings
    ] == text


def test_json_multi_module_call_path_lists_each_call(flow: Path, runner: CliRunner) -> None:
    result = lint(runner, "--isolated", "--format", "json", ".")
    [finding] = json.loads(result.stdout)
    steps = [(Path(s["path"]).name, s["call"]) for s in finding["call_path"]]
    assert steps == [("main.py", "run_epoch"), ("epoch.py", "step"), ("step.py", "train_step")]
    assert finding["jit_site"]["path"].endswith("model.py")


def test_json_for_no_findings_is_an_empty_list(project: Path, runner: CliRunner) -> None:
    result = lint(runner, "--format", "json", "clean.py")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == []


# -- selection -------------------------------------------------------------------------------------
SELECTIONS = [
    (["--select", "RTL101"], ["RTL101", "RTL101"]),
    (["--select", "RTL2"], ["RTL201"]),
    (["--select", "rtl201"], ["RTL201"]),
    (["--select", "RTL1", "--extend-select", "RTL201"], ["RTL101", "RTL101", "RTL201"]),
    (["--select", "RTL101,RTL201"], ["RTL101", "RTL101", "RTL201"]),
    (["--ignore", "RTL201"], ["RTL101", "RTL101"]),
    (["--ignore", "RTL101", "--ignore", "RTL201"], []),
    (["--select", "RTL", "--ignore", "RTL2"], ["RTL101", "RTL101"]),
    (["--select", "RTL2", "--ignore", "RTL201"], []),
    (["--extend-select", "RTL201"], ["RTL101", "RTL101", "RTL201"]),
]


@pytest.mark.parametrize(
    ("args", "expected"), SELECTIONS, ids=[" ".join(args) for args, _ in SELECTIONS]
)
def test_select_ignore_extend_select(
    project: Path, runner: CliRunner, args: list[str], expected: list[str]
) -> None:
    result = lint(runner, *args, "train.py")
    assert sorted(codes(result.stdout)) == expected
    assert result.exit_code == (1 if expected else 0)


def test_ignore_by_prefix_without_select(project: Path, runner: CliRunner) -> None:
    result = lint(runner, "--ignore", "RTL1", "train.py")
    assert codes(result.stdout) == ["RTL201"]


# -- files: excludes, .gitignore, symlinks ---------------------------------------------------------
def test_default_excludes_skip_tool_and_build_folders(project: Path, runner: CliRunner) -> None:
    hidden = {
        f"{folder}/{folder.strip('.')}_copy.py": TRAIN
        for folder in (
            ".venv",
            "venv",
            "build",
            "dist",
            "node_modules",
            ".git",
            "__pycache__",
            ".ipynb_checkpoints",
            "__pypackages__",
        )
    }
    write(project, hidden)
    result = lint(runner, ".")
    assert {path for path, *_ in parsed(result.stdout)} == {"train.py"}


def test_a_file_named_explicitly_is_analysed_even_in_an_excluded_folder(
    project: Path, runner: CliRunner
) -> None:
    write(project, {"build/generated_train.py": TRAIN})
    result = lint(runner, "build/generated_train.py")
    assert {path for path, *_ in parsed(result.stdout)} == {"build/generated_train.py"}


def test_exclude_and_extend_exclude(project: Path, runner: CliRunner) -> None:
    write(project, {"legacy/old_train.py": TRAIN, "scripts/sweep.py": TRAIN})
    everything = {path for path, *_ in parsed(lint(runner, ".").stdout)}
    assert everything == {"train.py", "legacy/old_train.py", "scripts/sweep.py"}
    extended = lint(runner, "--extend-exclude", "legacy", ".")
    assert {path for path, *_ in parsed(extended.stdout)} == {"train.py", "scripts/sweep.py"}
    by_glob = lint(runner, "--exclude", "scripts/*", "--exclude", "old_*.py", ".")
    assert {path for path, *_ in parsed(by_glob.stdout)} == {"train.py"}


def test_exclude_replaces_the_default_excludes(project: Path, runner: CliRunner) -> None:
    write(project, {"build/built_train.py": TRAIN})
    result = lint(runner, "--exclude", "nothing_matches", ".")
    assert "build/built_train.py" in {path for path, *_ in parsed(result.stdout)}


def test_gitignore_is_respected_unless_told_otherwise(project: Path, runner: CliRunner) -> None:
    write(
        project,
        {
            ".gitignore": "# generated code\ngenerated/\n*_autogen.py\n!keep_autogen.py\n",
            "generated/gen_train.py": TRAIN,
            "model_autogen.py": TRAIN,
            "keep_autogen.py": TRAIN,
            "sub/.gitignore": "local_*.py\n",
            "sub/local_train.py": TRAIN,
            "sub/shared_train.py": TRAIN,
            "sub/inner_autogen.py": TRAIN,
        },
    )
    (project / ".git").mkdir()
    respected = {path for path, *_ in parsed(lint(runner, ".").stdout)}
    assert respected == {"train.py", "keep_autogen.py", "sub/shared_train.py"}
    # The .gitignore of the folder above the analysed one still applies.
    inner = {path for path, *_ in parsed(lint(runner, "sub").stdout)}
    assert inner == {"sub/shared_train.py"}
    everything = {path for path, *_ in parsed(lint(runner, "--no-respect-gitignore", ".").stdout)}
    assert everything == {
        "train.py",
        "keep_autogen.py",
        "model_autogen.py",
        "generated/gen_train.py",
        "sub/local_train.py",
        "sub/shared_train.py",
        "sub/inner_autogen.py",
    }


def test_same_file_name_in_two_script_folders_is_analysed_twice(
    tmp_path: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, {"scripts/train.py": TRAIN, "tools/train.py": TRAIN})
    monkeypatch.chdir(tmp_path)
    paths = [path for path, *_ in parsed(lint(runner, ".").stdout)]
    assert paths.count("scripts/train.py") == 3
    assert paths.count("tools/train.py") == 3


def test_symlink_alias_to_a_walked_folder_is_not_an_error(project: Path, runner: CliRunner) -> None:
    write(project, {"lib/lib_train.py": TRAIN})
    (project / "src").mkdir()
    os.symlink("../lib", project / "src" / "alias")
    result = lint(runner, ".")
    assert "RTL000" not in result.stdout
    assert sorted({path for path, *_ in parsed(result.stdout)}) == ["lib/lib_train.py", "train.py"]


# -- bad input -------------------------------------------------------------------------------------
def generated_module(size: int) -> str:
    """A module like the ones asset embedders generate: one huge tuple of string chunks."""
    chunk = "    " + repr("0123456789abcdef" * 5) + "\n"
    count = size // len(chunk) + 1
    return "# Generated by embed_assets.py; do not edit.\nASSETS = (\n" + chunk * count + ")\n"


def test_bad_files_get_one_rtl000_line_each_and_the_rest_is_analysed(
    project: Path, runner: CliRunner
) -> None:
    write(
        project,
        {
            "bad/syntax_error.py": "def broken(:\n    return 1\n",
            "bad/latin1.py": b"# commentaire \xe9t\xe9 sans d\xe9claration\nx = 1\n",
            "bad/nul_bytes.py": b"x = 1\x00\n",
            "bad/empty.py": "",
            "bad/generated_assets.py": generated_module(5 * 1024 * 1024),
        },
    )
    os.symlink("missing_target.py", project / "bad" / "dangling.py")
    os.symlink(".", project / "bad" / "loop")
    assert (project / "bad" / "generated_assets.py").stat().st_size >= 5 * 1024 * 1024
    result = lint(runner, ".")
    assert result.exit_code == 1
    assert said(result.stderr) == ""
    lines = result.stdout.splitlines()
    by_path: dict[str, list[str]] = {}
    for line in lines:
        # normpath: see test_error_paths_are_spelled_like_file_paths for "./bad/loop".
        path = os.path.normpath(LINE.match(line)["path"])  # type: ignore[index]
        by_path.setdefault(path, []).append(line)
    for bad in ("syntax_error.py", "latin1.py", "nul_bytes.py", "dangling.py", "loop"):
        [only] = by_path.pop(f"bad/{bad}")
        # At the parser's error position when there is one, else at 1:1.
        where = "1:12" if bad == "syntax_error.py" else "1:1"
        assert re.match(rf"(\./)?bad/{bad}:{where}: RTL000 ", only), only
        assert len(only) < 300, "one clear line, not a traceback"
    assert "bad/empty.py" not in by_path
    # A big generated module is either analysed (nothing to report) or skipped with one line.
    big = by_path.pop("bad/generated_assets.py", [])
    assert len(big) <= 1
    assert all(line.startswith("bad/generated_assets.py:1:1: RTL000 ") for line in big)
    assert sorted(parsed("\n".join(by_path.pop("train.py")))) == sorted(expected_train(project))
    assert by_path == {}


def test_error_paths_are_spelled_like_file_paths(project: Path, runner: CliRunner) -> None:
    write(project, {"bad/broken.py": "def f(:\n"})
    os.symlink(".", project / "bad" / "loop")
    paths = sorted(path for path, *_ in parsed(lint(runner, ".").stdout))
    assert paths == ["bad/broken.py", "bad/loop", "train.py", "train.py", "train.py"]


def test_syntax_error_message_says_where(project: Path, runner: CliRunner) -> None:
    write(project, {"broken.py": "import jax\n\n\ndef f(x:\n    return x\n"})
    result = lint(runner, "broken.py")
    assert result.exit_code == 1
    [line] = result.stdout.splitlines()
    # Reported where the parser gave up: the unclosed "(" on line 4.
    assert line == "broken.py:4:6: RTL000 cannot parse: '(' was never closed"


NEWER_SYNTAX = (
    f"RTL000 cannot parse: uses syntax newer than Python {sys.version_info[0]}.{sys.version_info[1]}"
    " that runs retracelint; run retracelint with Python >="
    f" {sys.version_info[0]}.{sys.version_info[1] + 1} to analyse it"
)
needs_older_python = pytest.mark.skipif(
    sys.version_info >= (3, 12), reason="this Python parses type aliases and PEP 701 f-strings"
)


@needs_older_python
def test_syntax_of_a_newer_python_is_named_as_such(project: Path, runner: CliRunner) -> None:
    write(
        project,
        {
            "aliases.py": "import jax\n\ntype Params = dict[str, jax.Array]\n",
            "report.py": 'def show(row):\n    return f"{row["name"]}: {row["loss"]:.3f}"\n',
            "generic.py": "class Buffer[T]:\n    items: list[T]\n",
        },
    )
    result = lint(runner, "aliases.py", "report.py", "generic.py", "train.py")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    # Where Python gave up; the rest of the project is analysed as usual.
    assert lines[:3] == [
        f"aliases.py:3:6: {NEWER_SYNTAX}",
        f"generic.py:1:13: {NEWER_SYNTAX}",
        f"report.py:2:20: {NEWER_SYNTAX}",
    ]
    assert codes("\n".join(lines[3:])) == ["RTL101", "RTL101", "RTL201"]


@needs_older_python
def test_a_file_too_large_for_libcst_to_read_safely_gets_python_s_message(project: Path) -> None:
    # libcst's parser overflows its stack (a crash, not an exception) on an operator chain this long,
    # so a file holding one is not handed to it: Python's own message, in a process that lives on.
    chain = "+".join(["a"] * 7000)
    write(project, {"long.py": f"x = {chain}\ntype Params = dict\n", "broken.py": "def f(:\n"})
    result = run_process("--no-cache", "long.py", "broken.py", cwd=project)
    assert result.returncode == 1, result.stderr
    assert result.stdout.decode().splitlines() == [
        "broken.py:1:7: RTL000 cannot parse: invalid syntax",
        "long.py:2:6: RTL000 cannot parse: invalid syntax",
    ]


def test_libcst_is_imported_only_for_a_file_python_cannot_parse(project: Path) -> None:
    # Importing libcst costs about 0.3 s: a run over files that parse never pays it.
    probe = (
        "import sys\n"
        "from retracelint.config import Settings\n"
        "from retracelint.engine import analyse\n"
        "run = analyse(sys.argv[1:], Settings(cache=False, jobs=1))\n"
        "print(len(run.findings), 'libcst' in sys.modules)\n"
    )
    clean = subprocess.run(
        [sys.executable, "-c", probe, "train.py", "clean.py"], cwd=project, capture_output=True
    )
    assert clean.stdout.split() == [b"3", b"False"], clean.stderr
    write(project, {"broken.py": "def f(:\n"})
    broken = subprocess.run(
        [sys.executable, "-c", probe, "broken.py"], cwd=project, capture_output=True
    )
    assert broken.stdout.split() == [b"1", b"True"], broken.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="chmod 000 does not stop reads on Windows")
def test_unreadable_file_is_one_line(project: Path, runner: CliRunner) -> None:
    secret = project / "secret.py"
    secret.write_text(TRAIN, encoding="utf-8")
    secret.chmod(0)
    try:
        if os.access(secret, os.R_OK):
            pytest.skip("this user (root) can still read a chmod 000 file")
        result = lint(runner, ".")
    finally:
        secret.chmod(0o644)
    secret_lines = [line for line in result.stdout.splitlines() if line.startswith("secret.py:")]
    assert len(secret_lines) == 1
    assert secret_lines[0].startswith("secret.py:1:1: RTL000 cannot read")
    assert result.exit_code == 1


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="needs Unix sockets")
def test_file_that_cannot_be_opened_even_by_root(project: Path, runner: CliRunner) -> None:
    # open() on a Unix socket fails with ENXIO for every user, root included.
    with socket.socket(socket.AF_UNIX) as server:
        server.bind("listener.py")
        result = lint(runner, ".")
    lines = result.stdout.splitlines()
    assert [line for line in lines if line.startswith("listener.py")] == [
        "listener.py:1:1: RTL000 not a regular file; skipped"
    ]
    assert len(lines) == 4
    assert result.exit_code == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_named_pipe_does_not_hang(project: Path) -> None:
    os.mkfifo(project / "pipe.py")
    result = run_process("--no-cache", ".", cwd=project)
    assert result.returncode == 1
    assert b"pipe.py:1:1: RTL000 " in result.stdout


def test_empty_file_alone_is_clean(tmp_path: Path, runner: CliRunner) -> None:
    empty = tmp_path / "empty.py"
    empty.write_text("", encoding="utf-8")
    result = lint(runner, str(empty))
    assert (result.exit_code, result.stdout) == (0, "")


# -- statistics, output file, formats --------------------------------------------------------------
def test_statistics_counts_per_code_after_the_findings(project: Path, runner: CliRunner) -> None:
    result = lint(runner, "--statistics", "train.py")
    lines = result.stdout.splitlines()
    assert len(lines) == 5
    assert [LINE.match(line) is not None for line in lines] == [True, True, True, False, False]
    assert re.fullmatch(r"2\s+RTL101 loop-varying-slice", lines[3])
    assert re.fullmatch(r"1\s+RTL201 loop-varying-static-arg", lines[4])


def test_output_file_gets_the_report(project: Path, runner: CliRunner) -> None:
    result = lint(runner, "-o", "report.txt", "train.py")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert parsed((project / "report.txt").read_text(encoding="utf-8")) == sorted(
        expected_train(project)
    )


def test_github_format(project: Path, runner: CliRunner) -> None:
    result = lint(runner, "--format", "github", "train.py")
    assert result.exit_code == 1
    annotations = [line for line in result.stdout.splitlines() if line.startswith("::")]
    assert len(annotations) == 3
    line, col = at(project, "train.py", "data[:epoch]", "RTL101")[1:3]
    assert any(
        a.startswith(f"::error file=train.py,line={line},")
        and f"col={col}" in a
        and "title=RTL101 loop-varying-slice::" in a
        for a in annotations
    )


def test_github_is_the_default_format_in_github_actions(
    project: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = lint(runner, "train.py")
    assert result.stdout.startswith("::error file=train.py,")
    forced = lint(runner, "--format", "text", "train.py")
    assert parsed(forced.stdout) == sorted(expected_train(project))


def test_sarif_format(project: Path, runner: CliRunner) -> None:
    result = lint(runner, "--format", "sarif", "train.py")
    assert result.exit_code == 1
    log = json.loads(result.stdout)
    assert log["version"] == "2.1.0"
    [run] = log["runs"]
    assert run["tool"]["driver"]["name"] == "retracelint"
    results = run["results"]
    assert sorted(r["ruleId"] for r in results) == ["RTL101", "RTL101", "RTL201"]
    starts = sorted(
        (
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["locations"][0]["physicalLocation"]["region"]["startColumn"],
        )
        for r in results
    )
    assert starts == sorted((line, col) for _, line, col, _ in expected_train(project))


# -- stdin -----------------------------------------------------------------------------------------
def test_stdin_with_a_filename_in_a_real_process(project: Path) -> None:
    result = run_process(
        "--no-cache", "-", "--stdin-filename", "src/edited.py", cwd=project, stdin=TRAIN.encode()
    )
    assert result.returncode == 1
    assert [p for p, *_ in parsed(result.stdout.decode())] == ["src/edited.py"] * 3


def test_stdin_replaces_the_file_of_the_same_name(project: Path, runner: CliRunner) -> None:
    # An editor sends the unsaved buffer: the fixed text, named like the buggy file on disk.
    result = lint(runner, "-", "--stdin-filename", "train.py", stdin=CLEAN.encode())
    assert (result.exit_code, result.stdout) == (0, "")
    both = lint(runner, ".", "-", "--stdin-filename", "train.py", stdin=CLEAN.encode())
    assert (both.exit_code, both.stdout) == (0, "")


def test_stdin_noqa_and_parse_errors_use_the_stdin_text(project: Path, runner: CliRunner) -> None:
    quiet = TRAIN.replace("data[:epoch])", "data[:epoch])  # noqa")
    result = lint(runner, "-", "--stdin-filename", "train.py", stdin=quiet.encode())
    assert sorted(codes(result.stdout)) == ["RTL101", "RTL201"]
    broken = lint(runner, "-", "--stdin-filename", "pkg/broken.py", stdin=b"def f(:\n")
    assert broken.exit_code == 1
    assert broken.stdout == "pkg/broken.py:1:7: RTL000 cannot parse: invalid syntax\n"


def test_stdin_without_a_filename(project: Path, runner: CliRunner) -> None:
    result = lint(runner, "-", stdin=TRAIN.encode())
    assert result.exit_code == 1
    assert len({p for p, *_ in parsed(result.stdout)}) == 1


# -- noqa and per-file ignores ---------------------------------------------------------------------
TWO_ON_ONE_LINE = "rollout(data[: epoch * 2], epoch)"


def noqa_variant(project: Path, comment: str) -> Path:
    path = project / "train.py"
    path.write_text(
        TRAIN.replace(TWO_ON_ONE_LINE, f"{TWO_ON_ONE_LINE}  {comment}"), encoding="utf-8"
    )
    return path


@pytest.mark.parametrize("comment", ["# noqa", "# NOQA", "#noqa", "# noqa:RTL101,RTL201"])
def test_noqa_that_covers_both_codes(project: Path, runner: CliRunner, comment: str) -> None:
    noqa_variant(project, comment)
    result = lint(runner, "train.py")
    assert parsed(result.stdout) == [at(project, "train.py", "data[:epoch]", "RTL101")]


@pytest.mark.parametrize(
    ("comment", "left"),
    [
        ("# noqa: RTL101", "RTL201"),
        ("# noqa: RTL2", "RTL101"),
        ("# noqa:RTL201", "RTL101"),
        ("# noqa: E501", "both"),
    ],
)
def test_noqa_with_codes_keeps_the_other_codes(
    project: Path, runner: CliRunner, comment: str, left: str
) -> None:
    noqa_variant(project, comment)
    result = lint(runner, "train.py")
    on_line = [
        code for _, line, _, code in parsed(result.stdout)
        if line == at(project, "train.py", TWO_ON_ONE_LINE, "")[1]
    ]  # fmt: skip
    assert sorted(on_line) == (["RTL101", "RTL201"] if left == "both" else [left])


def test_unused_noqa_is_reported_only_when_selected(project: Path, runner: CliRunner) -> None:
    path = noqa_variant(project, "# noqa: RTL201, RTL105")
    default = lint(runner, "train.py")
    assert sorted(codes(default.stdout)) == ["RTL101", "RTL101"]
    result = lint(runner, "--extend-select", "RTL100", "train.py")
    unused = [f for f in parsed(result.stdout) if f[3] == "RTL100"]
    line = at(project, "train.py", TWO_ON_ONE_LINE, "")[1]
    comment_col = path.read_text(encoding="utf-8").splitlines()[line - 1].index("# noqa") + 1
    assert unused == [("train.py", line, comment_col, "RTL100")]
    assert "RTL105" in result.stdout.splitlines()[-1]


def test_a_warning_says_so_in_every_format_and_severity_error_leaves_it_out(
    project: Path, runner: CliRunner
) -> None:
    # RTL105 suppresses nothing on that line: RTL100 reports it, a warning from the real pipeline,
    # beside the two RTL101 errors of the same file.
    path = noqa_variant(project, "# noqa: RTL201, RTL105")
    args = ("--extend-select", "RTL100", "train.py")
    line = at(project, "train.py", TWO_ON_ONE_LINE, "")[1]
    col = path.read_text(encoding="utf-8").splitlines()[line - 1].index("# noqa") + 1

    text = lint(runner, *args)
    assert text.exit_code == 1
    warning = (
        f"train.py:{line}:{col}: RTL100 [warning] unused noqa: no RTL105 finding on this line;"
        " remove the code from the comment"
    )
    errors = [ln for ln in text.stdout.splitlines() if ln != warning]
    assert len(errors) == 2 == len(text.stdout.splitlines()) - 1
    # An error prints as before, as flake8 prints it: the message right after the code.
    assert all(LINE.match(ln)["message"].startswith("slice data[") for ln in errors)

    as_json = json.loads(lint(runner, "--format", "json", *args).stdout)
    assert sorted((f["code"], f["line"], f["severity"]) for f in as_json) == [
        ("RTL100", line, "warning"),
        ("RTL101", line - 1, "error"),
        ("RTL101", line, "error"),
    ]
    sarif = json.loads(lint(runner, "--format", "sarif", *args).stdout)
    assert sorted((r["ruleId"], r["level"]) for r in sarif["runs"][0]["results"]) == [
        ("RTL100", "warning"),
        ("RTL101", "error"),
        ("RTL101", "error"),
    ]
    github = lint(runner, "--format", "github", *args).stdout.splitlines()
    assert [a.split(" ", 1)[0] for a in github[:3]] == ["::error", "::error", "::warning"]
    assert f"line={line}," in github[2] and "title=RTL100 unused-noqa::" in github[2]
    assert github[3] == "retracelint: 3 findings (2 errors, 1 warning)."

    errors_only = lint(runner, "--severity", "error", *args)
    assert errors_only.exit_code == 1
    assert errors_only.stdout.splitlines() == errors
    # With only the warning left, --severity error has nothing to report: a clean exit.
    path.write_text(
        path.read_text(encoding="utf-8")
        .replace("data[:epoch])", "data[:epoch])  # noqa: RTL101")
        .replace("# noqa: RTL201, RTL105", "# noqa: RTL101, RTL201, RTL105"),
        encoding="utf-8",
    )
    assert codes(lint(runner, *args).stdout) == ["RTL100"]
    quiet = lint(runner, "--severity", "error", *args)
    assert (quiet.exit_code, quiet.stdout) == (0, "")


def test_severity_from_the_configuration_and_a_wrong_value(
    project: Path, runner: CliRunner
) -> None:
    noqa_variant(project, "# noqa: RTL201, RTL105")
    write(project, {"pyproject.toml": '[tool.retracelint]\nextend-select = ["RTL100"]\n'})
    both = lint(runner, "train.py")
    assert " RTL100 [warning] " in both.stdout
    write(
        project,
        {"pyproject.toml": '[tool.retracelint]\nextend-select = ["RTL100"]\nseverity = "error"\n'},
    )
    errors = lint(runner, "train.py")
    assert (errors.exit_code, "RTL100" in errors.stdout) == (1, False)
    assert errors.stdout.count(" RTL101 ") == 2
    # The flag wins over the file, as every flag does.
    assert " RTL100 [warning] " in lint(runner, "--severity", "warning", "train.py").stdout
    write(project, {"pyproject.toml": '[tool.retracelint]\nseverity = "info"\n'})
    wrong = lint(runner, "train.py")
    assert (wrong.exit_code, wrong.stdout) == (2, "")
    assert wrong.stderr.splitlines() == [
        f"retracelint: error: {project / 'pyproject.toml'}: option 'severity': expected one of"
        " warning, error, got 'info'"
    ]


def test_noqa_on_another_line_does_not_suppress(project: Path, runner: CliRunner) -> None:
    (project / "train.py").write_text(
        TRAIN.replace("def fit(params, data, epochs):", "def fit(params, data, epochs):  # noqa"),
        encoding="utf-8",
    )
    assert len(parsed(lint(runner, "train.py").stdout)) == 3


def test_per_file_ignores_flag(project: Path, runner: CliRunner) -> None:
    write(project, {"tests/test_train.py": TRAIN, "experiments/sweep.py": TRAIN})
    result = lint(
        runner,
        "--per-file-ignores",
        "tests/*:RTL",
        "--per-file-ignores",
        "experiments/:RTL2",
        ".",
    )
    found = {(path, code) for path, _, _, code in parsed(result.stdout)}
    assert found == {
        ("train.py", "RTL101"),
        ("train.py", "RTL201"),
        ("experiments/sweep.py", "RTL101"),
    }
    by_name = lint(runner, "--per-file-ignores", "train.py:RTL101", "train.py")
    assert codes(by_name.stdout) == ["RTL201"]


# -- rules -----------------------------------------------------------------------------------------
def test_rules_lists_every_rule(runner: CliRunner) -> None:
    result = runner.invoke(main, ["rules"])
    assert result.exit_code == 0
    body = result.stdout.splitlines()[1:]
    assert [line.split()[0] for line in body] == [rule.code for rule in RULES]
    for rule, line in zip(RULES, body, strict=True):
        assert rule.name in line


@pytest.mark.parametrize("longer", [False, True], ids=["rules", "a-plugin's-long-code-and-name"])
def test_rules_table_columns_line_up_whatever_the_lengths(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch, longer: bool
) -> None:
    import dataclasses

    import retracelint.cli as cli_module

    rules = list(RULES)
    if longer:
        extra = dataclasses.replace(rules[2], code="RTL10000", name="a-" + rules[-1].name * 2)
        rules.insert(1, extra)
    monkeypatch.setattr(cli_module, "RULES", rules)
    header, *body = runner.invoke(main, ["rules"]).stdout.splitlines()
    starts = [header.index(title) for title in ("name", "default", "summary")]
    for rule, line in zip(rules, body, strict=True):
        default = "on" if rule.default else "off"
        found, at = [], len(rule.code)
        for cell in (rule.name, default, rule.summary):
            at = line.index(cell, at)
            found.append(at)
            at += len(cell)
        assert found == starts, line
        assert all(line[start - 2 : start] == "  " for start in starts), line


@pytest.mark.parametrize("code", ["RTL101", "rtl101"])
def test_rule_prints_the_rule_page(runner: CliRunner, code: str) -> None:
    result = runner.invoke(main, ["rule", code])
    assert result.exit_code == 0
    assert result.stdout.startswith("# RTL101")
    assert "loop-varying-slice" in result.stdout.splitlines()[0]


def test_unknown_rule_is_a_usage_error(runner: CliRunner) -> None:
    result = runner.invoke(main, ["rule", "RTL999"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "RTL999" in result.stderr


def test_version(runner: CliRunner) -> None:
    result = runner.invoke(main, ["--version"])
    assert result.exit_code == 0
    assert re.fullmatch(r"retracelint, version \d+\.\d+\.\d+\S*\n", result.stdout)


# -- baseline --------------------------------------------------------------------------------------
def test_write_baseline_then_report_only_new_findings(project: Path, runner: CliRunner) -> None:
    written = lint(runner, "--write-baseline", "baseline.json", ".")
    assert written.exit_code == 0
    assert written.stdout == ""
    assert "3 findings" in written.stderr
    recorded = json.loads((project / "baseline.json").read_text(encoding="utf-8"))
    assert len(recorded["findings"]) == 3
    same = lint(runner, "--baseline", "baseline.json", ".")
    assert (same.exit_code, same.stdout) == (0, "")
    # Lines added above the old findings do not make them new; a new file's findings are new.
    (project / "train.py").write_text('"""Moved down."""\n\n' + TRAIN, encoding="utf-8")
    write(project, {"new_train.py": TRAIN})
    after = lint(runner, "--baseline", "baseline.json", ".")
    assert after.exit_code == 1
    assert {path for path, *_ in parsed(after.stdout)} == {"new_train.py"}


def test_broken_baseline_is_an_error(project: Path, runner: CliRunner) -> None:
    (project / "baseline.json").write_text("{not json", encoding="utf-8")
    result = lint(runner, "--baseline", "baseline.json", "train.py")
    assert result.exit_code == 2
    assert "baseline.json" in result.stderr


# -- no stray files --------------------------------------------------------------------------------
def snapshot(root: Path) -> Iterator[str]:
    return (str(p.relative_to(root)) for p in sorted(root.rglob("*")))


def test_no_cache_writes_nothing_and_the_cache_goes_where_asked(
    project: Path, runner: CliRunner, tmp_path_factory: pytest.TempPathFactory
) -> None:
    before = list(snapshot(project))
    lint(runner, ".")
    assert list(snapshot(project)) == before
    cache = tmp_path_factory.mktemp("cache")
    first = runner.invoke(main, ["check", "--cache-dir", str(cache), "."])
    assert list(snapshot(project)) == before
    assert any(cache.iterdir())
    second = runner.invoke(main, ["check", "--cache-dir", str(cache), "."])
    assert first.stdout == second.stdout
    assert len(parsed(second.stdout)) == 3


def test_a_cache_folder_that_cannot_be_written_is_said_once_and_the_run_goes_on(
    project: Path, runner: CliRunner, tmp_path: Path
) -> None:
    """Not silently cold on every run: one line on standard error names the folder and why, and the
    findings are those of a run without a cache (a file where the folder should be stops root too)."""
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    cache = tmp_path / "a-file" / "cache"
    without = runner.invoke(main, ["check", "--no-cache", "."])
    for _ in range(2):
        result = run_process("-j", "2", "--cache-dir", str(cache), ".", cwd=project)
        assert (result.returncode, result.stdout.decode()) == (1, without.stdout)
        assert said(result.stderr) == (
            f"retracelint: cannot write the cache in {cache}: Not a directory; analysing without"
            " it (--cache-dir names another folder)\n"
        )


def test_no_paths_means_the_current_folder(project: Path, runner: CliRunner) -> None:
    result = runner.invoke(main, ["--no-cache"])
    assert sorted(parsed(result.stdout)) == sorted(expected_train(project))
