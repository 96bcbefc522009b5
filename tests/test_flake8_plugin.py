"""The flake8 plugin, run through the real flake8 on a project whose findings cross modules.

`tests/fixtures_flake8/proj` is a package of three modules: loops in `pkg/main.py` make the values
that vary, `pkg/pipeline.py` passes them on and `pkg/kernels.py` holds the jitted functions. flake8
checks one file at a time (in worker processes with `-j2`), so each finding needs the whole project.
Each test works on its own copy of the project, so that no run sees another's caches.

flake8 runs in a process of its own where that process is what is tested (its workers, its standard
input); elsewhere the same flake8 application runs in this process (tests/flake8_runs.py).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from flake8_runs import FLAKE8, flake8_here
from limits import HANG_S

from retracelint import flake8_plugin
from retracelint.flake8_plugin import RetracelintChecker

FIXTURE = Path(__file__).parent / "fixtures_flake8" / "proj"
RETRACELINT = [
    sys.executable,
    "-c",
    "import sys; from retracelint.cli import main; sys.exit(main())",
]
NOQA = "# " + "noqa"  # spelled apart so that linters of this file do not read it as a directive
LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z]+\d+) (?P<text>.*)$")

Finding = tuple[str, int, int, str, str]  # path, line, col, code, message


def parse(output: str) -> list[Finding]:
    """`path:line:col: CODE message` lines (flake8's and retracelint's default format)."""
    found = []
    for text in output.splitlines():
        match = LINE.match(text)
        assert match, f"not a finding line: {text!r}"
        path = match["path"].removeprefix("./")
        found.append((path, int(match["line"]), int(match["col"]), match["code"], match["text"]))
    return sorted(found)


def cli_parse(output: str) -> list[Finding]:
    """The CLI's findings as the plugin must print them: flake8 has no severities, so a warning's
    message comes without the CLI's "[warning] " (see ``report.text_line``)."""
    return [(*f[:4], f[4].removeprefix("[warning] ")) for f in parse(output)]


def marked(root: Path, marker: str) -> set[tuple[str, int, str]]:
    """(path, line, code) of the lines carrying `# <marker>: CODE` in the fixture."""
    pattern = re.compile(rf"#\s*{marker}:\s*(RTL\d+)")
    out = set()
    for path in sorted(root.rglob("*.py")):
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for code in pattern.findall(text):
                out.add((path.relative_to(root).as_posix(), number, code))
    return out


def where(findings: list[Finding]) -> set[tuple[str, int, str]]:
    return {(path, line, code) for path, line, _, code, _ in findings}


def run(command: list[str], cwd: Path, stdin: str | None = None) -> str:
    done = subprocess.run(
        command,
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=HANG_S,
    )
    assert done.returncode in (0, 1), f"{command} exited {done.returncode}:\n{done.stderr}"
    return done.stdout


def flake8_in_process(args: list[str], cwd: Path) -> str:
    code, report = flake8_here(args, cwd)
    assert code in (0, 1), f"flake8 {args} exited {code}"
    return report


@pytest.fixture
def project(tmp_path: Path) -> Path:
    copy = tmp_path / "proj"
    shutil.copytree(FIXTURE, copy, ignore=shutil.ignore_patterns(".retracelint_cache"))
    return copy


@pytest.fixture(scope="module")
def cli_findings(tmp_path_factory: pytest.TempPathFactory) -> list[Finding]:
    copy = tmp_path_factory.mktemp("cli") / "proj"
    shutil.copytree(FIXTURE, copy, ignore=shutil.ignore_patterns(".retracelint_cache"))
    return cli_parse(run(RETRACELINT, copy))


def test_fixture_findings_cross_modules(cli_findings: list[Finding]) -> None:
    assert where(cli_findings) == marked(FIXTURE, "expect")
    # The RTL101 in pipeline.py exists only because of the loop in main.py.
    (pipeline_slice,) = [f for f in cli_findings if f[0] == "pkg/pipeline.py"]
    assert "in the loop at main.py:" in pipeline_slice[4]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_same_findings_as_the_cli(project: Path, cli_findings: list[Finding], jobs: str) -> None:
    # `.` and -j2 make flake8 check the four files in two worker processes.
    found = parse(run([*FLAKE8, "--select", "RTL", "-j", jobs, "."], project))
    assert found == cli_findings  # path, line, column, code and message
    assert list((project / ".retracelint_cache" / "v3" / "runs").glob("*.findings"))
    if jobs == "2":  # a second run reads the findings index instead of analysing again, and agrees
        assert parse(run([*FLAKE8, "--select", "RTL", "-j", jobs, "pkg"], project)) == cli_findings


def test_disable_noqa_shows_what_noqa_hides(project: Path) -> None:
    found = parse(flake8_in_process(["--select", "RTL", "--disable-noqa", "pkg"], project))
    hidden = marked(FIXTURE, "without noqa")
    assert len(hidden) == 2  # the bare one and the one naming RTL101
    assert where(found) == marked(FIXTURE, "expect") | hidden


def test_stdin_buffer_is_analysed_with_the_project(
    project: Path, cli_findings: list[Finding]
) -> None:
    on_disk = (project / "pkg" / "main.py").read_text(encoding="utf-8")
    buffer = (
        "# two lines added in the editor,\n# not saved yet\n"
        + on_disk.replace("range(1, 4):", "range(1, 6):")
        # A noqa naming another code does not hide the RTL201; the second one hides the RTL101.
        .replace("depth)  # expect: RTL201", f"depth)  {NOQA}: RTL101")
        .replace("données[:n])  # expect: RTL101", f"données[:n])  {NOQA}:E501,RTL101 reason")
    )
    # RTL100 (unused noqa, off by default) is on because flake8 names it.
    flake8 = [*FLAKE8, "--select", "RTL,RTL100", "--stdin-display-name", "pkg/main.py", "-"]
    found = parse(run(flake8, project, stdin=buffer))
    cli = [*RETRACELINT, "--extend-select", "RTL100", "--stdin-filename", "pkg/main.py", "-"]
    text = run(cli, project, buffer)
    assert "RTL100" in [f[3] for f in parse(text) if f[4].startswith("[warning] ")]
    assert found == cli_parse(text)

    (saved,) = [f for f in cli_findings if f[0] == "pkg/main.py" and f[3] == "RTL201"]
    # The slice pipeline.prefix_total() makes is shown at its call in the buffer (pipeline.py is
    # not checked), its message as the whole run has it, from where it is made.
    (made,) = [f for f in cli_findings if f[0] == "pkg/pipeline.py" and f[3] == "RTL101"]
    brought, static, unused = found
    assert brought[1:4] == (15 + 2, 9, "RTL101")
    assert brought[4].startswith(f"from pkg/pipeline.py:{made[1]}: slice x[:n] changes shape")
    assert brought[4].endswith(
        "so jitted 'total' re-traces; pad or bucket it (at most 7 traces: one per listed item)"
    )
    assert static[1:4] == (saved[1] + 2, saved[2], "RTL201")
    assert f"in the loop at line {saved[1] - 1 + 2}, so" in static[4]
    assert unused[1:4] == (saved[1] + 2, saved[2] + len("depth)  "), "RTL100")
    # The file on disk is untouched.
    assert (project / "pkg" / "main.py").read_text(encoding="utf-8") == on_disk


def test_flake8_select_decides_over_the_project_ignore(project: Path) -> None:
    # pyproject.toml ignores RTL105; naming it to flake8 brings it back, and only it.
    found = parse(flake8_in_process(["--select", "RTL105", "pkg"], project))
    assert where(found) == marked(FIXTURE, "expect-if-selected")
    # (With `--select RTL` the project's own selection stands: test_same_findings_as_the_cli.)


def test_configuration_error_is_one_rtl000_per_file_not_a_crash(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.retracelint]\nselct = ['RTL1']\n")
    found = parse(flake8_in_process(["--select", "RTL", "pkg"], project))
    assert {(f[0], f[1], f[2], f[3]) for f in found} == {
        (f"pkg/{name}", 1, 1, "RTL000")
        for name in ("__init__.py", "kernels.py", "main.py", "pipeline.py")
    }
    assert "unknown option 'selct'" in found[0][4]


def test_a_file_nothing_could_check_is_never_silent(project: Path) -> None:
    # flake8 runs no plugin on a file it cannot parse (a binary, syntax of a newer Python, a syntax
    # error) and reports E999 itself, which `--select RTL` would hide: the plugin selects it. A file
    # flake8 reads (as Latin-1) but Python, and so retracelint, cannot: the plugin's RTL000, once.
    pkg = project / "pkg"
    (pkg / "blob.py").write_bytes(bytes(range(256)))
    (pkg / "aliases.py").write_text("type Batch = dict[str, int]\n", encoding="utf-8")
    (pkg / "typo.py").write_text("def f(:\n    pass\n", encoding="utf-8")
    (pkg / "legacy.py").write_bytes(b"# caf\xe9 au lait\nimport jax\n")
    names = ["pkg/blob.py", "pkg/aliases.py", "pkg/typo.py", "pkg/legacy.py"]
    found = parse(flake8_in_process(["--select", "RTL", *names], project))
    expected = {("pkg/blob.py", "E999"), ("pkg/typo.py", "E999"), ("pkg/legacy.py", "RTL000")}
    if sys.version_info < (3, 12):
        expected.add(("pkg/aliases.py", "E999"))
    assert sorted((path, code) for path, _, _, code, _ in found) == sorted(expected)
    (legacy,) = [f for f in found if f[3] == "RTL000"]
    assert legacy[4] == "RTL000 cannot parse: invalid or missing encoding declaration"[7:]
    # A code the user ignores by name stays ignored.
    assert (
        parse(flake8_in_process(["--select", "RTL", "--ignore", "E9", "pkg/typo.py"], project))
        == []
    )


def test_flake8_own_codes_are_added_only_to_an_explicit_rtl_selection() -> None:
    def added(**given: list[str]) -> tuple[str, ...]:
        return flake8_plugin.unchecked_codes(argparse.Namespace(**given))

    assert added(select=["RTL"]) == ("E902", "E999")
    assert added(select=["RTL1", "E9"]) == ()  # already selected
    assert added(select=["RTL"], extend_ignore=["E999"]) == ("E902",)
    assert added(select=None, extend_select=["RTL"]) == ()  # flake8's defaults hold E9 already
    assert added(select=["F"]) == ()  # a run that does not ask for retracelint is left alone


# In-process checks of the parts that need no flake8 start-up.


def check(path: Path, text: str | None = None) -> list[tuple[int, int, str]]:
    """What flake8 would get from the plugin for one file (a fresh run each time)."""
    RetracelintChecker.parse_options(argparse.Namespace(select=None, extend_select=None))
    if text is None:
        text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    checker = RetracelintChecker(None, str(path), lines)
    return [(line, col, message.split(" ", 1)[0]) for line, col, message, _ in checker.run()]


def test_without_a_config_the_root_is_the_top_of_the_package_chain(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "pyproject.toml").unlink()
    monkeypatch.chdir(project.parent)  # run from elsewhere: the root is still proj/
    assert flake8_plugin.project_root(str(project / "pkg" / "pipeline.py")) == (str(project), None)
    # Nothing ignores RTL105 now; flake8 columns are 0-based.
    assert check(project / "pkg" / "pipeline.py") == [(18, 25, "RTL101"), (23, 33, "RTL105")]


def test_a_crash_inside_the_plugin_is_one_rtl000(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr("retracelint.engine.analyse", broken)
    monkeypatch.chdir(project)
    found = list(RetracelintChecker(None, "pkg/main.py", ["x = 1\n"]).run())
    assert [(line, col, message) for line, col, message, _ in found] == [
        (1, 0, "RTL000 retracelint failed on this file: RuntimeError: boom second line")
    ]


def test_files_the_project_excludes_get_no_findings(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "pyproject.toml").write_text('[tool.retracelint]\nextend_exclude = ["main.py"]\n')
    monkeypatch.chdir(project)
    assert check(project / "pkg" / "main.py") == []


def test_explicit_codes_are_the_specific_rtl_selectors() -> None:
    options = argparse.Namespace(select=["E", "RTL", "rtl201"], extend_select=["RTL1", "W5"])
    assert flake8_plugin.explicit_codes(options) == ("RTL201", "RTL1")
    assert flake8_plugin.explicit_codes(argparse.Namespace()) == ()


def test_the_project_confidence_decides_what_flake8_reports(tmp_path: Path) -> None:
    """flake8 shows proven chains by default, and the rest too with `confidence = "all"` in the
    project's configuration, as `retracelint check` does."""
    copy = tmp_path / "flags"
    shutil.copytree(Path(__file__).parent / "fixtures" / "evidence_feature_flags", copy)
    config = copy / "pyproject.toml"
    config.write_text("[tool.retracelint]\n", encoding="utf-8")
    proven = where(parse(flake8_in_process(["--select", "RTL", "."], copy)))
    config.write_text('[tool.retracelint]\nconfidence = "all"\n', encoding="utf-8")
    every = where(parse(flake8_in_process(["--select", "RTL", "."], copy)))
    assert proven == {("train.py", 17, "RTL101")}
    assert every == proven | {("train.py", 15, "RTL101")}
