"""Output formats that follow another tool's conventions: GitHub workflow commands and SARIF."""

from retracelint.formats.github import render_github, step_summary, write_step_summary
from retracelint.formats.sarif import render_sarif, sarif_log

__all__ = ["render_github", "render_sarif", "sarif_log", "step_summary", "write_step_summary"]
