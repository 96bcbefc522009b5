"""`retracelint confirm [PATHS]... -- COMMAND...`: prove each finding by running the program."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import click

from retracelint.cli import OneLineErrors
from retracelint.confirm import report as report_module
from retracelint.confirm import runner
from retracelint.confirm.plan import Plan, build_plan, load_plan

EPILOG = """\b
Examples:
  retracelint confirm src/ -- python train.py --steps 5
  retracelint confirm src/ -- pytest tests/test_train.py
  retracelint confirm --guard all -- python -m mypkg.train

\b
Exit status: 1 when a re-trace was confirmed (a finding or RTL901), 2 when retracelint or the
command could not run, or the command failed, timed out or was interrupted without any re-trace
being confirmed (the statuses are then partial), 0 otherwise.
"""


class _SplitAtDoubleDash(OneLineErrors):
    """Everything after the first `--` is the command to run, verbatim."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" in args:
            i = args.index("--")
            ctx.meta["retracelint.command"] = args[i + 1 :]
            args = args[:i]
        else:
            ctx.meta["retracelint.command"] = []
        return super().parse_args(ctx, args)


def _static_findings(paths: list[str]) -> list[Any]:
    try:
        from retracelint.engine import analyse_paths
    except ImportError as exc:
        raise click.ClickException(
            f"the static analysis is not available ({exc}); pass a plan with --plan FILE"
        ) from exc
    return analyse_paths(paths)


def _fail(message: str) -> None:
    click.echo(f"retracelint: error: {message}", err=True)
    sys.exit(2)


@click.command(
    "confirm",
    cls=_SplitAtDoubleDash,
    epilog=EPILOG,
    short_help="Run a program and prove which findings really re-trace.",
)
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--guard",
    type=click.Choice(["flagged", "all"]),
    default="flagged",
    show_default=True,
    help="Watch only the jit sites with findings, or every jit site in your code "
    "(re-traces nobody predicted are reported as RTL901).",
)
@click.option(
    "--backend",
    type=click.Choice(["auto", "cpu", "gpu"]),
    default="auto",
    show_default=True,
    help="The JAX platform for the command (sets JAX_PLATFORMS: gpu means cuda, with cpu beside "
    "it for host callbacks).",
)
@click.option(
    "--timeout",
    type=float,
    default=None,
    metavar="SECONDS",
    help="Stop the command after this long.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
)
@click.option(
    "-o",
    "--output-file",
    "--output",
    "output",
    type=click.Path(dir_okay=False),
    help="Write the report to this file (as `check -o` does).",
)
@click.option(
    "--plan",
    "plan_file",
    type=click.Path(exists=True, dir_okay=False),
    help="Use this JSON plan of findings instead of running the static analysis.",
)
@click.option(
    "--events",
    type=click.Path(dir_okay=False),
    help="Keep the raw event log (JSON lines) in this file.",
)
def confirm_command(
    paths: tuple[str, ...],
    guard: str,
    backend: str,
    timeout: float | None,
    fmt: str,
    output: str | None,
    plan_file: str | None,
    events: str | None,
) -> None:
    """Run COMMAND while watching JAX's own trace-cache misses, and report for each finding whether
    it really re-traces at its call: confirmed (with the argument that changed and where), not
    re-traced, inconclusive or not reached. The program runs unchanged: its jitted functions stay
    JAX's objects.

    PATHS are analysed first (default: the current directory). Put the command after `--`.
    """
    command = click.get_current_context().meta.get("retracelint.command") or []
    if not command:
        _fail(
            "give the command to run after `--`, e.g. retracelint confirm src/ -- python train.py"
        )
    problem = runner.check_jax()
    if problem:
        _fail(problem)
    if plan_file:
        try:
            plan = load_plan(plan_file)
        except (OSError, ValueError) as exc:
            _fail(f"cannot read the plan {plan_file}: {exc}")
    else:
        findings = _static_findings(list(paths) or ["."])
        # What could not be read (a missing path, a syntax error) is said as `check` says it.
        for finding in findings:
            if finding.code == "RTL000":
                loc = finding.location
                click.echo(f"{loc.path}:{loc.line}:{loc.col}: RTL000 {finding.message}", err=True)
        plan = build_plan(findings)
    result = run_plan(plan, command, guard=guard, backend=backend, timeout=timeout, events=events)
    text = report_module.write_report(result, fmt, output)
    if not output:
        sys.stdout.flush()
        click.echo(text, nl=False)
    sys.exit(result.exit_code())


def run_plan(
    plan: Plan,
    command: list[str],
    *,
    guard: str = "flagged",
    backend: str = "auto",
    timeout: float | None = None,
    events: str | None = None,
    cwd: str | None = None,
    env: dict[str, str] | None = None,
) -> report_module.ConfirmReport:
    """Run `command` under the instrumentation for `plan` and evaluate what it saw."""
    workdir = tempfile.mkdtemp(prefix="retracelint-confirm-")
    try:
        events_file = os.path.abspath(events) if events else os.path.join(workdir, "events.jsonl")
        Path(events_file).write_text("", encoding="utf-8")
        plan_path = os.path.join(workdir, "plan.json")
        with open(plan_path, "w", encoding="utf-8") as fh:
            json.dump(plan.runtime_plan(events_file, guard), fh)
        child_env = runner.child_env(dict(os.environ if env is None else env), plan_path, backend)
        run = runner.run_command(command, child_env, timeout=timeout, cwd=cwd)
        run.guard, run.backend = guard, backend
        observations = report_module.aggregate(report_module.read_events(events_file))
        return report_module.evaluate(plan, observations, run)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
