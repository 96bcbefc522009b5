"""Read the rule pages in ``rules/`` into plain data, for the tests that check them.

A page has a fixed shape (see any ``rules/RTL*.md``)::

    # RTL101: loop-varying-slice

    **Summary:** <one line>
    **Default:** on | off

    ## What it detects / ## Why it re-traces / ## How to fix
    ## Flagged example      (one ```python block; the lines the linter must report carry `# expect: CODE`)
    ## Fixed example        (one ```python block, no markers)

A page without the two example sections (RTL000, RTL901: an ``## Example`` with text output instead) is
not executable. Line numbers of markers are 1-based lines of the example program itself, so a test can
write the program to a file and compare findings to them directly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"

FLAGGED = "Flagged example"
FIXED = "Fixed example"
EXECUTABLE_SECTIONS = ("What it detects", "Why it re-traces", "How to fix", FLAGGED, FIXED)
DESCRIPTIVE_SECTIONS = ("What it detects", "How to fix", "Example")

_TITLE = re.compile(r"^# (?P<code>[A-Z]+\d+): (?P<name>[a-z0-9-]+)\s*$", re.MULTILINE)
_SUMMARY = re.compile(r"^\*\*Summary:\*\*[ \t]*(?P<text>.+?)[ \t]*$", re.MULTILINE)
_DEFAULT = re.compile(r"^\*\*Default:\*\*[ \t]*(?P<value>\S+)[ \t]*$", re.MULTILINE)
_HEADING = re.compile(r"^## (?P<title>.+?)\s*$", re.MULTILINE)
_PYTHON_BLOCK = re.compile(r"^```python[ \t]*\n(?P<code>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>[A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*)")


class PageError(ValueError):
    """A page that does not follow the fixed shape."""


def expectations(source: str) -> frozenset[tuple[int, str]]:
    """The ``(line, code)`` pairs that ``# expect: CODE[, CODE…]`` markers in ``source`` ask for."""
    found: set[tuple[int, str]] = set()
    for number, line in enumerate(source.splitlines(), start=1):
        match = _EXPECT.search(line)
        if match:
            found.update((number, code.strip()) for code in match.group("codes").split(","))
    return frozenset(found)


@dataclass(frozen=True)
class Example:
    source: str
    page_line: int  # line of the page where the program's first line is, for error messages

    @property
    def expected(self) -> frozenset[tuple[int, str]]:
        return expectations(self.source)


@dataclass(frozen=True)
class RulePage:
    path: Path
    code: str
    name: str
    summary: str
    default: bool
    sections: dict[str, str] = field(hash=False, compare=False)  # heading -> body text
    flagged: Example | None = None
    fixed: Example | None = None

    @property
    def executable(self) -> bool:
        return self.flagged is not None and self.fixed is not None

    @property
    def flagged_source(self) -> str | None:
        return self.flagged.source if self.flagged else None

    @property
    def fixed_source(self) -> str | None:
        return self.fixed.source if self.fixed else None

    @property
    def expected(self) -> frozenset[tuple[int, str]]:
        """``(line, code)`` pairs the linter must report on the flagged example."""
        return self.flagged.expected if self.flagged else frozenset()

    def write_examples(self, folder: Path) -> tuple[Path, Path]:
        """Write the two programs as ``<CODE>_flagged.py`` and ``<CODE>_fixed.py``; return their paths."""
        if not self.executable:
            raise PageError(f"{self.path.name} has no runnable examples")
        assert self.flagged_source is not None and self.fixed_source is not None
        folder.mkdir(parents=True, exist_ok=True)
        flagged = folder / f"{self.code}_flagged.py"
        fixed = folder / f"{self.code}_fixed.py"
        flagged.write_text(self.flagged_source, encoding="utf-8")
        fixed.write_text(self.fixed_source, encoding="utf-8")
        return flagged, fixed


def _sections(text: str) -> dict[str, tuple[str, int]]:
    """Heading -> (body, offset of the body in text)."""
    headings = list(_HEADING.finditer(text))
    out: dict[str, tuple[str, int]] = {}
    for index, heading in enumerate(headings):
        end = headings[index + 1].start() if index + 1 < len(headings) else len(text)
        title = heading.group("title")
        if title in out:
            raise PageError(f"section {title!r} appears twice")
        out[title] = (text[heading.end() : end], heading.end())
    return out


def _example(text: str, sections: dict[str, tuple[str, int]], title: str) -> Example | None:
    if title not in sections:
        return None
    body, offset = sections[title]
    blocks = list(_PYTHON_BLOCK.finditer(body))
    if len(blocks) != 1:
        raise PageError(f"section {title!r} needs exactly one ```python block, has {len(blocks)}")
    start = offset + blocks[0].start("code")
    return Example(blocks[0].group("code"), text.count("\n", 0, start) + 1)


def parse_page(path: Path) -> RulePage:
    text = path.read_text(encoding="utf-8")
    title = _TITLE.search(text)
    summary = _SUMMARY.search(text)
    default = _DEFAULT.search(text)
    if title is None or title.start() != 0:
        raise PageError(f"{path.name}: the first line must be '# CODE: name'")
    if summary is None or default is None:
        raise PageError(f"{path.name}: needs '**Summary:**' and '**Default:**' lines")
    if default.group("value") not in ("on", "off"):
        raise PageError(f"{path.name}: '**Default:**' must be 'on' or 'off'")
    try:
        sections = _sections(text)
        flagged = _example(text, sections, FLAGGED)
        fixed = _example(text, sections, FIXED)
    except PageError as exc:
        raise PageError(f"{path.name}: {exc}") from None
    if (flagged is None) != (fixed is None):
        raise PageError(f"{path.name}: needs both '## {FLAGGED}' and '## {FIXED}', or neither")
    return RulePage(
        path=path,
        code=title.group("code"),
        name=title.group("name"),
        summary=summary.group("text"),
        default=default.group("value") == "on",
        sections={name: body.strip() for name, (body, _) in sections.items()},
        flagged=flagged,
        fixed=fixed,
    )


def page_paths(rules_dir: Path = RULES_DIR) -> list[Path]:
    return sorted(rules_dir.glob("RTL*.md"))


def load_pages(rules_dir: Path = RULES_DIR) -> list[RulePage]:
    return [parse_page(path) for path in page_paths(rules_dir)]


def executable_pages(rules_dir: Path = RULES_DIR) -> list[RulePage]:
    return [page for page in load_pages(rules_dir) if page.executable]
