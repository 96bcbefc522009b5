"""The command line: ``retracelint [check] PATHS``, ``rules``, ``rule CODE``, ``graph``, ``confirm``.

Exit codes follow flake8 and ruff: 0 no findings, 1 findings, 2 usage, configuration or internal error.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import traceback
from dataclasses import dataclass, replace
from pathlib import Path

import click

from retracelint import __version__, config
from retracelint.model import SEVERITIES, display_safe
from retracelint.rules import RULES, RULES_BY_CODE, page

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


class DefaultGroup(click.Group):
    """A group whose first argument, when it is not a command, is a path for ``check``; ``confirm`` is
    imported only when it runs (or help lists it), so that ``check`` starts fast."""

    _LAZY = ("confirm",)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        known = (*self.commands, *self._LAZY, "--help", "-h", "--version")
        if not args or args[0] not in known:
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


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="retracelint")
def main() -> None:
    """Find the code paths that make jax.jit functions re-trace and re-compile.

    Run `retracelint PATHS` (the same as `retracelint check PATHS`).
    """


def _codes(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(
        code.strip().upper() for value in values for code in value.split(",") if code.strip()
    )


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
    help="Output format (default: text; github when GITHUB_ACTIONS=true).",
)
@click.option(
    "--severity",
    type=click.Choice(SEVERITIES),
    default=None,
    help="Report findings of this severity and worse (default: warning, i.e. all).",
)
@click.option("--output-file", "-o", type=click.Path(dir_okay=False), help="Write the report here.")
@click.option(
    "--exit-zero", is_flag=True, default=None, help="Exit 0 even when there are findings."
)
@click.option("--statistics", is_flag=True, default=None, help="Print a count per code at the end.")
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
@click.option("--isolated", is_flag=True, help="Ignore configuration files.")
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
@click.option("--fix", is_flag=True, help="Apply the safe fixes, then report what remains.")
@click.option("--diff", is_flag=True, help="Print what --fix would change; exit 1 if anything.")
def check(paths: tuple[str, ...], **options: object) -> None:
    """Analyse PATHS (files or folders; '-' reads standard input)."""
    kept: list[object] = []
    try:
        code = _check(list(paths) or ["."], options, kept)
    except config.ConfigError as exc:
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


def _settings(paths: list[str], options: dict[str, object]) -> config.Settings:
    settings = config.load(paths, options["config_file"], options["isolated"])  # type: ignore[arg-type]
    changes: dict[str, object] = {}
    for name in ("select", "ignore", "extend_select"):
        if options[name]:
            changes[name] = _codes(options[name])  # type: ignore[arg-type]
    for name in ("exclude", "extend_exclude", "jit_wrappers"):
        if options[name]:
            changes[name] = tuple(options[name])  # type: ignore[arg-type]
    if options["per_file_ignores"]:
        changes["per_file_ignores"] = settings.per_file_ignores + config.parse_per_file_ignores(
            list(options["per_file_ignores"])  # type: ignore[call-overload]
        )
    for name in (
        "output_format",
        "exit_zero",
        "statistics",
        "jobs",
        "cache_dir",
        "disable_noqa",
        "severity",
    ):
        if options[name] is not None:
            changes[name] = options[name]
    if options["no_cache"]:
        changes["cache"] = False
    if options["no_prescan"]:
        changes["prescan"] = False
    if options["no_respect_gitignore"]:
        changes["respect_gitignore"] = False
    return replace(settings, **changes)  # type: ignore[arg-type]


def _check(paths: list[str], options: dict[str, object], kept: list[object]) -> int:
    from retracelint.engine import analyse
    from retracelint.report import render, statistics

    settings = _settings(paths, options)
    stdin = sys.stdin.buffer.read() if "-" in paths else None
    stdin_filename = str(options["stdin_filename"] or "stdin.py")
    run = analyse(paths, settings, stdin=stdin, stdin_filename=stdin_filename)
    kept.append(run)  # freed by the process's end, not here (see ``run``)
    findings = run.findings
    if options["baseline"]:
        from retracelint.baseline import BaselineError, load_baseline

        try:
            findings = load_baseline(options["baseline"]).filter(findings)  # type: ignore[arg-type]
        except BaselineError as exc:
            click.echo(f"retracelint: error: {exc}", err=True)
            return EXIT_ERROR
    if options.get("fix") or options.get("diff"):
        from retracelint.fixes import fix_or_diff

        outcome = fix_or_diff(findings, paths, settings, options, stdin, stdin_filename)
        if outcome.exit_code is not None:
            return outcome.exit_code
        findings = outcome.findings
    if options["write_baseline"]:
        from retracelint.baseline import write_baseline

        write_baseline(options["write_baseline"], display_safe(findings))  # type: ignore[arg-type]
        click.echo(
            f"retracelint: wrote {len(findings)} findings to {options['write_baseline']}", err=True
        )
        return EXIT_CLEAN
    output_format = settings.output_format or (
        "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
    )
    root = str(Path(settings.config_file).parent) if settings.config_file else os.getcwd()
    if output_format != "text" or options["output_file"]:
        findings = display_safe(findings)  # UTF-8 documents: undecodable file-name bytes escaped
    text = render(findings, output_format, root=root)
    if settings.statistics and output_format == "text":
        text += statistics(findings)
    if options["output_file"]:
        Path(options["output_file"]).write_text(text, encoding="utf-8")  # type: ignore[arg-type]
    else:
        click.echo(text, nl=False)
    summary_file = os.environ.get("GITHUB_STEP_SUMMARY")
    if output_format == "github" and summary_file:
        from retracelint.formats.github import write_step_summary

        write_step_summary(findings, summary_file)
    if findings and not settings.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


@main.command("rules")
def rules_command() -> None:
    """List every rule: code, name, default and summary."""
    width = max(len(r.name) for r in RULES)
    click.echo(f"{'code':<7} {'name':<{width}} {'default':<7} summary")
    for rule in RULES:
        default = "on" if rule.default else "off"
        click.echo(f"{rule.code:<7} {rule.name:<{width}} {default:<7} {rule.summary}")


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
    help="Print the whole linked call graph of PATHS as JSON ({caller: [callees]}, PyCG's format).",
)
@click.option("--json", "as_json", is_flag=True, help="With --calls: JSON (the only format).")
def graph_command(
    paths: tuple[str, ...],
    as_dot: bool,
    select: tuple[str, ...],
    no_cache: bool,
    calls: bool,
    as_json: bool,
) -> None:
    """Draw the call path of each finding, from the varying value to the jit site; or, with
    --calls --json, print the whole call graph the analysis links."""
    from retracelint.engine import analyse
    from retracelint.graphviz import call_graph, dot, mermaid_all

    targets = list(paths) or ["."]
    try:
        settings = config.load(targets)
    except config.ConfigError as exc:
        click.echo(f"retracelint: error: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    if select:
        settings = replace(settings, select=_codes(select))
    if no_cache:
        settings = replace(settings, cache=False)
    if calls:
        from retracelint.callgraph import Project

        # Every file, linked whole: the pre-scan keeps only what a jit site can reach.
        run = analyse(targets, replace(settings, cache=False, prescan=False))
        click.echo(json.dumps(call_graph(Project(run.summaries)), indent=1))
        return
    if as_json:
        click.echo("retracelint: error: --json needs --calls", err=True)
        sys.exit(EXIT_ERROR)
    findings = [f for f in analyse(targets, settings).findings if f.code != "RTL000"]
    click.echo(dot(findings) if as_dot else mermaid_all(findings), nl=False)
