"""The command line: ``retracelint [check] PATHS``, ``rules``, ``rule CODE``, ``graph``, ``confirm``.

Exit codes follow flake8 and ruff: 0 no findings, 1 findings, 2 usage, configuration or internal error.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import re
import sys
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from retracelint import __version__, config
from retracelint.model import SEVERITIES, Finding, display_safe
from retracelint.rules import RULES, RULES_BY_CODE, page

if TYPE_CHECKING:
    from retracelint.fixes import Availability

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


@dataclass
class _Process:
    exit_fast: bool = False  # set by ``run``, the console script: never inside tests or flake8


_process = _Process()


def run() -> None:
    """The ``retracelint`` command. A check ends the process with ``os._exit`` once its output is
    written: freeing a large project's summaries object by object, and the interpreter's own teardown,
    cost about as long as the check itself when nothing changed (0.3 s after a cold run of the
    benchmark corpus), and the operating system reclaims the memory at once."""
    _process.exit_fast = True
    main()


def _exit_now(code: int) -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more to write
            stream.flush()
    os._exit(code)


class OneLineError(click.ClickException):
    """A click error (an unknown option, a bad value) shown as retracelint shows its own errors: one
    line, ``retracelint: error: ...``, with the command's help named; click's own is a usage block
    and ``Error: ...``."""

    def __init__(self, error: click.ClickException) -> None:
        super().__init__(error.format_message())
        self.exit_code = error.exit_code
        context = getattr(error, "ctx", None)
        self.hint = f" (see '{context.command_path} --help')" if context is not None else ""

    def show(self, file: object = None) -> None:
        click.echo(f"retracelint: error: {self.message}{self.hint}", err=True)


@contextlib.contextmanager
def one_line_errors() -> Iterator[None]:
    try:
        yield
    except OneLineError:
        raise
    except click.ClickException as exc:
        raise OneLineError(exc) from exc


class OneLineErrors(click.Command):
    """A command whose errors in its arguments are ``OneLineError``s."""

    def make_context(self, *args: object, **kwargs: object) -> click.Context:
        with one_line_errors():
            return super().make_context(*args, **kwargs)  # type: ignore[arg-type]


class DefaultGroup(OneLineErrors, click.Group):
    """A group whose first argument, when it is not a command, is a path for ``check``; ``confirm`` is
    imported only when it runs (or help lists it), so that ``check`` starts fast. The errors in the
    arguments of its commands are ``OneLineError``s too."""

    _LAZY = ("confirm",)

    def invoke(self, ctx: click.Context) -> object:
        with one_line_errors():
            return super().invoke(ctx)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        commands = (*self.commands, *self._LAZY)
        if not args or args[0] not in (*commands, "--help", "-h", "--version"):
            if args and _mistyped_command(args[0]):
                close = difflib.get_close_matches(args[0], commands, n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                raise click.UsageError(
                    f"no such command or path: '{args[0]}' (commands: {', '.join(commands)}){hint}",
                    ctx,
                )
            args = ["check", *args]
        return super().parse_args(ctx, args)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self._LAZY and name not in self.commands:
            try:
                from retracelint.confirm.cli import confirm_command
            except ImportError:
                return None
            self.add_command(confirm_command)
        return super().get_command(ctx, name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        for name in self._LAZY:
            self.get_command(ctx, name)
        return super().list_commands(ctx)


def _mistyped_command(word: str) -> bool:
    """A first argument that reads as a command name (a bare word, no path of that name), not a path."""
    return bool(_WORD.fullmatch(word)) and not os.path.lexists(word)


_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


@click.group(
    "retracelint", cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(__version__, prog_name="retracelint")
def main() -> None:
    """Find the code paths that make jax.jit functions re-trace and re-compile.

    Run `retracelint PATHS` (the same as `retracelint check PATHS`).
    """


def _codes(option: str, values: tuple[str, ...]) -> tuple[str, ...]:
    """Rule selectors given to ``option`` (repeated, or separated by commas), checked."""
    codes = [code for value in values for code in value.split(",") if code.strip()]
    try:
        return config.rule_selectors(codes)
    except ValueError as exc:
        raise config.ConfigError(f"{option}: {exc}") from exc


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--select", multiple=True, help="Codes or prefixes to report (replaces the defaults)."
)
@click.option("--ignore", multiple=True, help="Codes or prefixes to leave out.")
@click.option("--extend-select", multiple=True, help="Codes or prefixes to add to the selection.")
@click.option("--exclude", multiple=True, help="Globs to skip (replaces the default excludes).")
@click.option("--extend-exclude", multiple=True, help="Globs to skip in addition to the defaults.")
@click.option("--per-file-ignores", multiple=True, help="PATTERN:CODES, e.g. 'tests/*:RTL2'.")
@click.option(
    "--jit-wrapper", "jit_wrappers", multiple=True, help="Extra jit-like decorator or function."
)
@click.option(
    "--format",
    "--output-format",
    "output_format",
    type=click.Choice(config.OUTPUT_FORMATS),
    help="Output format: concise (one line per finding, the default; also 'text'), full (with the call"
    " path, the jit site and the fix), json, github (the default when GITHUB_ACTIONS=true) or sarif.",
)
@click.option(
    "--severity",
    type=click.Choice(SEVERITIES),
    default=None,
    help="Report findings of this severity and worse (default: warning, i.e. all).",
)
@click.option(
    "--confidence",
    type=click.Choice(config.CONFIDENCE_LEVELS),
    default=None,
    help="high (default): only findings whose chain is proven; all: also those resting on an"
    " assumption, marked with it.",
)
@click.option("--output-file", "-o", type=click.Path(dir_okay=False), help="Write the report here.")
@click.option(
    "--exit-zero", is_flag=True, default=None, help="Exit 0 even when there are findings."
)
@click.option(
    "--statistics",
    is_flag=True,
    default=None,
    help="Print a count per code at the end (after text; on standard error for other formats).",
)
@click.option("--stdin-filename", default=None, help="The name to report for source read from '-'.")
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=0),
    default=None,
    help="Processes in all, this one included (0: one per CPU, the default).",
)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the summary cache.")
@click.option(
    "--no-prescan", is_flag=True, help="Parse every file, even those no jit site can reach."
)
@click.option("--cache-dir", type=click.Path(file_okay=False), help="Where the cache lives.")
@click.option(
    "--config", "config_file", type=click.Path(dir_okay=False), help="Configuration file."
)
@click.option(
    "--isolated",
    is_flag=True,
    help="Analyse only PATHS, as a project of their own, and ignore configuration files.",
)
@click.option("--baseline", type=click.Path(dir_okay=False), help="Report only findings not in it.")
@click.option(
    "--write-baseline", type=click.Path(dir_okay=False), help="Record the findings as a baseline."
)
@click.option(
    "--no-respect-gitignore", is_flag=True, help="Analyse files that .gitignore excludes."
)
@click.option(
    "--disable-noqa", is_flag=True, default=None, help="Report findings under # noqa too."
)
@click.option(
    "--fix",
    is_flag=True,
    help="Apply the safe fixes, then report what remains (standard input: print it fixed, and the report on standard error).",
)
@click.option("--diff", is_flag=True, help="Print what --fix would change; exit 1 if anything.")
@click.option(
    "--unsafe-fixes",
    is_flag=True,
    help="Make --fix and --diff apply the fixes a user must check too, and mark them [*].",
)
def check(paths: tuple[str, ...], **options: object) -> None:
    """Analyse PATHS (files or folders; '-' reads standard input).

    Each path is analysed within its project (the nearest folder above it with a retracelint
    configuration, else with a pyproject.toml, setup.cfg, setup.py or .git), so that call paths from
    the rest of the project count; the findings reported are those in PATHS."""
    kept: list[object] = []
    try:
        code = _check(list(paths) or ["."], options, kept)
    except (config.ConfigError, _OutputError) as exc:
        click.echo(f"retracelint: error: {exc}", err=True)
        code = EXIT_ERROR
    except click.exceptions.Exit:
        raise
    except Exception as exc:  # a crash of the linter must read as one, not as "findings"
        click.echo(f"retracelint: internal error: {type(exc).__name__}: {exc}", err=True)
        if os.environ.get("RETRACELINT_DEBUG"):
            traceback.print_exc()
        code = EXIT_ERROR
    if _process.exit_fast:
        _exit_now(code)
    sys.exit(code)


class _OutputError(Exception):
    """A report or baseline that cannot be written where the user asked."""


def _settings_for(options: dict[str, object]) -> Callable[[Path | None], config.Settings]:
    """The settings of each project: its configuration file (or ``--config``, or none with
    ``--isolated``), then the flags. The flags are checked at once, before any file is read."""
    changes: dict[str, object] = {}
    for name in ("select", "ignore", "extend_select"):
        if options[name]:
            changes[name] = _codes(f"--{name.replace('_', '-')}", options[name])  # type: ignore[arg-type]
    for name in ("exclude", "extend_exclude", "jit_wrappers"):
        if options[name]:
            changes[name] = tuple(options[name])  # type: ignore[arg-type]
    extra_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    if options["per_file_ignores"]:
        try:
            extra_ignores = config.parse_per_file_ignores(list(options["per_file_ignores"]))  # type: ignore[call-overload]
        except ValueError as exc:
            raise config.ConfigError(f"--per-file-ignores: {exc}") from exc
    for name in (
        "output_format",
        "exit_zero",
        "statistics",
        "jobs",
        "cache_dir",
        "disable_noqa",
        "severity",
        "confidence",
    ):
        if options[name] is not None:
            changes[name] = options[name]
    if options["no_cache"]:
        changes["cache"] = False
    if options["no_prescan"]:
        changes["prescan"] = False
    if options["no_respect_gitignore"]:
        changes["respect_gitignore"] = False
    explicit = None
    if options["config_file"] and not options["isolated"]:
        explicit = config.load_file(Path(options["config_file"]))  # type: ignore[arg-type]

    def settings_for(found: Path | None) -> config.Settings:
        if options["isolated"]:
            base = config.Settings()
        elif explicit is not None:
            base = explicit
        else:
            base = config.load_file(found) if found is not None else config.Settings()
        per_file = (
            {"per_file_ignores": base.per_file_ignores + extra_ignores} if extra_ignores else {}
        )
        return replace(base, **changes, **per_file)  # type: ignore[arg-type]

    return settings_for


def _fixable(
    findings: list[Finding], options: dict[str, object], stdin: bytes | None, stdin_filename: str
) -> Availability | None:
    """Which findings text output marks ``[*]`` (ruff's mark of a fix ``--fix`` makes)."""
    from retracelint.discover import shown
    from retracelint.fixes import FIXABLE, availability

    if options.get("fix") or options.get("diff") or not any(f.code in FIXABLE for f in findings):
        return None  # --fix and --diff say what they did themselves

    def read(path: str) -> bytes:
        if stdin is not None and path == shown(stdin_filename):
            return stdin
        return Path(path).read_bytes()

    unsafe = bool(options.get("unsafe_fixes"))
    return availability(findings, read, unsafe, elsewhere=stdin is None)


def _check(paths: list[str], options: dict[str, object], kept: list[object]) -> int:
    from retracelint.discover import not_source, shown
    from retracelint.engine import analyse_projects
    from retracelint.report import render, statistics

    settings_for = _settings_for(options)
    # A notebook named is said and skipped, as ruff says what it cannot read; the rest goes on.
    skipped = not_source(paths)
    for path, why in skipped.items():
        click.echo(f"retracelint: warning: {shown(path)}: skipped: {why}", err=True)
    paths = [path for path in paths if path not in skipped]
    if not paths:
        return EXIT_CLEAN
    stdin = sys.stdin.buffer.read() if "-" in paths else None
    stdin_filename = str(options["stdin_filename"] or "stdin.py")
    settings, run = analyse_projects(
        paths, settings_for, stdin, stdin_filename, bool(options["isolated"])
    )
    kept.append(run)  # freed by the process's end, not here (see ``run``)
    findings = run.findings
    report_to_stderr = False
    fix_summary = ""
    if not run.selected and not findings:
        shown = ", ".join(paths)
        click.echo(f"retracelint: no Python files found under {shown}", err=True)
    if options["baseline"]:
        from retracelint.baseline import BaselineError, load_baseline

        try:
            findings = load_baseline(options["baseline"]).filter(findings)  # type: ignore[arg-type]
        except BaselineError as exc:
            click.echo(f"retracelint: error: {exc}", err=True)
            return EXIT_ERROR
    if options.get("fix") or options.get("diff"):
        from retracelint.fixes import fix_or_diff

        def again(source: bytes | None, name: str) -> list[Finding]:
            isolated = bool(options["isolated"])
            return analyse_projects(paths, settings_for, source, name, isolated)[1].findings

        outcome = fix_or_diff(findings, again, options, stdin, stdin_filename)
        if outcome.exit_code is not None:
            return outcome.exit_code
        findings, fix_summary = outcome.findings, outcome.summary
        if outcome.fixed_stdin is not None:
            # As ruff does: the fixed source takes standard output, the report goes to standard error.
            sys.stdout.flush()
            sys.stdout.buffer.write(outcome.fixed_stdin)
            sys.stdout.flush()
            report_to_stderr = True
    if options["write_baseline"]:
        from retracelint.baseline import write_baseline

        target = str(options["write_baseline"])
        with _writing(target):
            write_baseline(target, display_safe(findings))
        click.echo(f"retracelint: wrote {len(findings)} findings to {target}", err=True)
        return EXIT_CLEAN
    output_format = settings.output_format or (
        "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "concise"
    )
    as_text = output_format in config.TEXT_FORMATS
    root = str(Path(settings.config_file).parent) if settings.config_file else os.getcwd()
    if not as_text or options["output_file"]:
        findings = display_safe(findings)  # UTF-8 documents: undecodable file-name bytes escaped
    fixable = _fixable(findings, options, stdin, stdin_filename) if as_text else None
    if fixable is not None:
        from retracelint.fixes import fixes_summary  # not imported for other formats: the codemods

        fix_summary = fixes_summary(len(findings), fixable)
    text = render(findings, output_format, root=root, fixable=fixable.fixable if fixable else None)
    counts = statistics(findings) if settings.statistics else ""
    if as_text:
        text, counts = text + counts, ""  # after the findings, as flake8 prints them
    if options["output_file"]:
        target = str(options["output_file"])
        with _writing(target):
            Path(target).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False, err=report_to_stderr)
    if counts:
        click.echo(counts, nl=False, err=True)  # the report itself stays a valid document
    if fix_summary:  # under the report, as ruff prints it; on stderr, for flake8's parsers
        click.echo(fix_summary, err=True)
    summary_file = os.environ.get("GITHUB_STEP_SUMMARY")
    if output_format == "github" and summary_file:
        from retracelint.formats.github import write_step_summary

        write_step_summary(findings, summary_file)
    if findings and not settings.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


@contextlib.contextmanager
def _writing(target: str) -> Iterator[None]:
    """Turn a file that cannot be written into a user error that names it."""
    try:
        yield
    except OSError as exc:
        raise _OutputError(f"cannot write {target}: {exc.strerror or exc}") from exc


@main.command("rules")
def rules_command() -> None:
    """List every rule: code, name, default and summary."""
    rows = [("code", "name", "default", "summary")]
    rows += [(r.code, r.name, "on" if r.default else "off", r.summary) for r in RULES]
    click.echo("".join(f"{line}\n" for line in table(rows)), nl=False)


def table(rows: list[tuple[str, ...]]) -> list[str]:
    """``rows`` as lines of aligned columns: each as wide as its widest cell, two spaces apart."""
    widths = [max(len(cell) for cell in column) for column in zip(*rows, strict=True)]
    return [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]


@main.command("rule")
@click.argument("code")
def rule_command(code: str) -> None:
    """Print the documentation page of rule CODE."""
    code = code.strip().upper()
    if code not in RULES_BY_CODE:
        click.echo(f"retracelint: error: unknown rule '{code}' (see `retracelint rules`)", err=True)
        sys.exit(EXIT_ERROR)
    text = page(code)
    if text is None:
        click.echo(f"retracelint: error: the page of {code} is not installed", err=True)
        sys.exit(EXIT_ERROR)
    click.echo(text, nl=not text.endswith("\n"))


@main.command("graph")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--dot", "as_dot", is_flag=True, help="Graphviz DOT instead of Mermaid.")
@click.option("--select", multiple=True, help="Codes or prefixes to draw.")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the summary cache.")
@click.option(
    "--calls",
    is_flag=True,
    help="Print the whole linked call graph of PATHS: JSON ({caller: [callees]}, PyCG's format), or"
    " DOT with --dot.",
)
@click.option("--json", "as_json", is_flag=True, help="With --calls: JSON (the default).")
def graph_command(
    paths: tuple[str, ...],
    as_dot: bool,
    select: tuple[str, ...],
    no_cache: bool,
    calls: bool,
    as_json: bool,
) -> None:
    """Draw the call path of each finding, from the varying value to the jit site; or, with
    --calls, print the whole call graph the analysis links (JSON, or DOT with --dot). A path that cannot be analysed is
    reported on standard error as `check` reports it (RTL000), with exit status 1."""
    from retracelint.engine import analyse, analyse_projects
    from retracelint.graphviz import call_graph, calls_dot, dot, mermaid_all
    from retracelint.report import text_line

    targets = list(paths) or ["."]
    try:
        settings_for = _graph_settings(select, no_cache)
        if as_json and not calls:
            raise config.ConfigError("--json needs --calls")
        if as_json and as_dot:
            raise config.ConfigError("--json and --dot are two formats: give one")
        if calls:
            # Every file of PATHS, linked whole: the pre-scan keeps only what a jit site can reach.
            settings = settings_for(config.project_of(targets[0])[1])
            run = analyse(targets, replace(settings, cache=False, prescan=False))
            graph = call_graph(run.project) if run.project is not None else {}
            text = calls_dot(graph) if as_dot else json.dumps(graph, indent=1) + "\n"
        else:
            _, run = analyse_projects(targets, settings_for)
            drawn = [f for f in run.findings if f.code != "RTL000"]
            text = dot(drawn) if as_dot else mermaid_all(drawn)
    except config.ConfigError as exc:
        click.echo(f"retracelint: error: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    click.echo(text, nl=False)
    failed = [f for f in run.findings if f.code == "RTL000"]
    for finding in failed:
        click.echo(text_line(finding), err=True)
    if not run.selected and not failed:
        click.echo(f"retracelint: no Python files found under {', '.join(targets)}", err=True)
    sys.exit(EXIT_FINDINGS if failed else EXIT_CLEAN)


def _graph_settings(
    select: tuple[str, ...], no_cache: bool
) -> Callable[[Path | None], config.Settings]:
    changes: dict[str, object] = {}
    if select:
        changes["select"] = _codes("--select", select)
    if no_cache:
        changes["cache"] = False

    def settings_for(found: Path | None) -> config.Settings:
        base = config.load_file(found) if found is not None else config.Settings()
        return replace(base, **changes)  # type: ignore[arg-type]

    return settings_for


@main.command("server")
@click.option(
    "--unsafe-fixes",
    is_flag=True,
    help="Offer the fixes a user must check too as code actions (titled '(unsafe)').",
)
def server_command(unsafe_fixes: bool) -> None:
    """Run the language server on standard input and output (for editors)."""
    try:
        from retracelint.server import serve
    except ImportError as exc:
        raise click.ClickException(
            f"the language server needs pygls ({exc}); install retracelint[server]"
        ) from exc
    serve(unsafe_fixes)
