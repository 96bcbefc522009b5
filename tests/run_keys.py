"""What the tests compare between two runs: every finding's place, rule and message, in order."""

from __future__ import annotations

from retracelint.engine import Run


def finding_keys(run: Run) -> list[tuple[str, int, int, str, str]]:
    return [
        (f.location.path, f.location.line, f.location.col, f.code, f.message) for f in run.findings
    ]
