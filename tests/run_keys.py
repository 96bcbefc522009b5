"""What the tests compare between two runs: every finding's place, rule, message and details, in order."""

from __future__ import annotations

from retracelint.engine import Run


def finding_keys(run: Run) -> list[tuple[str, int, int, str, str, tuple[str, ...]]]:
    return [
        (f.location.path, f.location.line, f.location.col, f.code, f.message, f.details)
        for f in run.findings
    ]
