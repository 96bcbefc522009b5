"""Settings: defaults, then ``[tool.retracelint]`` in pyproject.toml or ``[retracelint]`` in setup.cfg, then flags.

Each path belongs to a project (``project_of``), whose configuration is the nearest pyproject.toml with a
``[tool.retracelint]`` table or setup.cfg with a ``[retracelint]`` section above it, as in ruff and flake8.
Every value is checked as it is read: a rule selector that names no rule, or a value of the wrong type, is
a ``ConfigError`` naming the file and the key.
"""

from __future__ import annotations

import configparser
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from retracelint.model import CONFIDENCES, SEVERITIES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# ruff's default excludes, and ``build``: folders of tools, environments and copies (a notebook's
# ``.ipynb_checkpoints`` autosaves a second copy of every module it edits), never the project's code.
DEFAULT_EXCLUDES = (
    ".bzr",
    ".direnv",
    ".git",
    ".git-rewrite",
    ".ipynb_checkpoints",
    ".pants.d",
    ".pyenv",
    ".pytype",
    ".vscode",
    "__pypackages__",
    "_build",
    "buck-out",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    ".eggs",
    "build",
    "dist",
    "__pycache__",
    "node_modules",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".retracelint_cache",
)


# The text formats, named as ruff names them: ``concise`` (the default) prints one line per finding, its
# headline; ``full`` adds the call path, the jit site, the details and the fix under it. ``text`` is
# the older name of ``concise``.
TEXT_FORMATS = ("concise", "full", "text")
OUTPUT_FORMATS = (*TEXT_FORMATS, "json", "github", "sarif")
# What ``confidence`` may be set to: only proven chains, or every finding (marked with what it assumes).
CONFIDENCE_LEVELS = (CONFIDENCES[0], "all")


class ConfigError(Exception):
    """A configuration file or option that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] = ()  # empty: every rule that is on by default
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDES
    extend_exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    jit_wrappers: tuple[str, ...] = ()
    respect_gitignore: bool = True
    max_file_size: int = 10 * 1024 * 1024
    jobs: int = 0  # 0: one per CPU
    cache: bool = True
    prescan: bool = True  # skip files no import path connects to a jit site
    cache_dir: str | None = None
    output_format: str | None = None
    exit_zero: bool = False
    statistics: bool = False
    disable_noqa: bool = False  # keep findings a noqa comment covers (flake8 applies noqa itself)
    severity: str = SEVERITIES[0]  # the mildest severity shown
    confidence: str = CONFIDENCE_LEVELS[0]  # "high": only findings whose chain is proven; "all"
    config_file: str | None = field(default=None, compare=False)

    @property
    def base(self) -> str:
        """The folder that patterns in the configuration are relative to (as in flake8 and ruff)."""
        return (
            os.path.dirname(os.path.abspath(self.config_file)) if self.config_file else os.getcwd()
        )


_CODE_KEYS = {"select", "ignore", "extend_select"}
_LIST_KEYS = {"exclude", "extend_exclude", "jit_wrappers"}
_BOOL_KEYS = {"respect_gitignore", "cache", "exit_zero", "statistics", "disable_noqa", "prescan"}
_INT_KEYS = {"max_file_size": 1, "jobs": 0}  # and the least value each takes
_STR_KEYS = {"cache_dir", "output_format"}
_CHOICES = {
    "output_format": OUTPUT_FORMATS,
    "severity": SEVERITIES,
    "confidence": CONFIDENCE_LEVELS,
}
_ALIASES = {"format": "output_format", "output-format": "output_format"}


_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")


def project_of(path: str) -> tuple[Path, Path | None]:
    """The project ``path`` belongs to, and its retracelint configuration file.

    The project is the nearest folder (from ``path`` up) holding a ``[tool.retracelint]`` table or a
    ``[retracelint]`` section; else the nearest holding a pyproject.toml, setup.cfg, setup.py or .git;
    else the folder of ``path``, raised above its package chain (the folder ``import pkg`` runs from).
    """
    start = Path(os.path.abspath(path))
    while not start.is_dir() and start.parent != start:
        start = start.parent  # a file, or a buffer not saved yet in a folder not made yet
    marked: Path | None = None
    for folder in (start, *start.parents):
        found = _config_in(folder)
        if found is not None:
            return folder, found
        if marked is None and _has_marker(folder):
            marked = folder
    if marked is not None:
        return marked, None
    while (start / "__init__.py").is_file() and start.parent != start:
        start = start.parent
    return start, None


def is_marked(folder: Path) -> bool:
    """Whether ``folder`` says it is a project (a configuration, a build file or a repository), rather
    than being the folder a loose script happens to lie in (/tmp, a home folder)."""
    return _config_in(folder) is not None or _has_marker(folder)


def _has_marker(folder: Path) -> bool:
    return any((folder / name).exists() for name in _MARKERS)


def _config_in(folder: Path) -> Path | None:
    pyproject = folder / "pyproject.toml"
    if pyproject.is_file() and _pyproject_table(pyproject) is not None:
        return pyproject
    setup_cfg = folder / "setup.cfg"
    if setup_cfg.is_file() and _setup_cfg_section(setup_cfg) is not None:
        return setup_cfg
    return None


def _pyproject_table(path: Path) -> dict | None:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        reason = " ".join(str(exc).split())
        raise ConfigError(f"{path}: cannot read configuration: {reason}") from exc
    table = data.get("tool", {}).get("retracelint")
    return table if isinstance(table, dict) else None


def _setup_cfg_section(path: Path) -> dict | None:
    parser = configparser.ConfigParser()
    try:
        parser.read(path, encoding="utf-8")
    except (OSError, UnicodeDecodeError, configparser.Error) as exc:
        reason = " ".join(str(exc).split())  # configparser's messages span several lines
        raise ConfigError(f"{path}: cannot read configuration: {reason}") from exc
    if not parser.has_section("retracelint"):
        return None
    return dict(parser.items("retracelint"))


def load_file(path: Path) -> Settings:
    """The settings of configuration file ``path`` (pyproject.toml-like TOML, or setup.cfg-like INI)."""
    if not path.is_file():
        raise ConfigError(f"{path}: configuration file not found")
    if path.suffix == ".toml":
        raw, table = _pyproject_table(path), "a [tool.retracelint] table"
    else:
        raw, table = _setup_cfg_section(path), "a [retracelint] section"
    if raw is None:
        raise ConfigError(f"{path}: no retracelint configuration here: expected {table}")
    return apply(Settings(config_file=str(path)), raw, str(path))


def load(paths: list[str], explicit: str | None = None, isolated: bool = False) -> Settings:
    """The settings for ``paths``: the ``explicit`` file, else the configuration of the project of the
    first path (none with ``isolated``)."""
    if isolated:
        return Settings()
    if explicit:
        return load_file(Path(explicit))
    _, found = project_of(next((p for p in paths if p != "-"), "."))
    return load_file(found) if found is not None else Settings()


def apply(settings: Settings, raw: dict, origin: str) -> Settings:
    """Settings updated from a config mapping (TOML values or setup.cfg strings)."""
    known = {f.name for f in fields(Settings)}
    changes: dict[str, object] = {}
    for key, value in raw.items():
        name = _ALIASES.get(key, key.replace("-", "_"))
        if name not in known or name == "config_file":
            raise ConfigError(f"{origin}: unknown option '{key}'")
        try:
            changes[name] = _convert(name, value)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"{origin}: option '{key}': {exc}") from exc
    return replace(settings, **changes)  # type: ignore[arg-type]


def _convert(name: str, value: object) -> object:
    """A value as the setting wants it: TOML gives typed values, setup.cfg gives text to parse."""
    if name in _CODE_KEYS:
        return rule_selectors(_as_list(value))
    if name in _LIST_KEYS:
        return _as_list(value)
    if name in _BOOL_KEYS:
        if isinstance(value, bool):
            return value
        text = value.strip().lower() if isinstance(value, str) else None
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"expected true or false, got {value!r}")
    if name in _INT_KEYS:
        least = _INT_KEYS[name]
        number = value if isinstance(value, int) and not isinstance(value, bool) else None
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            number = int(value)
        if number is None or number < least:
            raise ValueError(f"expected a whole number of at least {least}, got {value!r}")
        return number
    if name == "per_file_ignores":
        return parse_per_file_ignores(value)
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {value!r}")
    if name in _CHOICES:
        if value not in _CHOICES[name]:
            raise ValueError(f"expected one of {', '.join(_CHOICES[name])}, got {value!r}")
        return value
    if name in _STR_KEYS:
        return value
    raise ValueError("unsupported option")


def _as_list(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        items = value.replace("\n", ",").split(",")
    elif isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        items = list(value)
    else:
        raise ValueError(f"expected a list of strings, got {value!r}")
    return tuple(item.strip() for item in items if item.strip())


def _rule_prefixes() -> tuple[str, ...]:
    from retracelint.rules import RULES

    return tuple(sorted({rule.code[:4] for rule in RULES}))


def rule_selectors(values: Iterable[str]) -> tuple[str, ...]:
    """Rule codes and prefixes as ``select``/``ignore`` take them, upper-cased; ``ALL`` (as in ruff) is
    every rule. A value that names no rule is a ValueError that says which codes exist: a typo must not
    silently select nothing (``RTL2O1``) or everything it did before."""
    from retracelint.rules import RULES

    out = []
    for value in values:
        code = value.strip().upper()
        if code == "ALL":
            code = "RTL"
        if len(code) < len("RTL") or not any(r.code.startswith(code) for r in RULES):
            prefixes = ", ".join(_rule_prefixes())
            raise ValueError(
                f"unknown rule code or prefix {value!r}; use ALL, RTL, a prefix ({prefixes}) or"
                " a code that `retracelint rules` lists"
            )
        out.append(code)
    return tuple(out)


def parse_per_file_ignores(value: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``{"tests/*" = ["RTL2"]}`` (TOML) or flake8's ``tests/*:RTL2,RTL3`` lines (setup.cfg, flag)."""
    out: list[tuple[str, tuple[str, ...]]] = []
    if isinstance(value, dict):
        for pattern, codes in value.items():
            out.append((str(pattern), rule_selectors(_as_list(codes))))
        return tuple(out)
    text = " ".join(str(v) for v in value) if isinstance(value, list | tuple) else str(value)
    # flake8's grammar: file patterns, a colon, then codes; spaces and commas separate freely.
    patterns: list[str] = []
    codes: list[str] = []
    after_colon = False
    for token in re.findall(r"[^\s,:]+|:", text):
        if token == ":":
            if not patterns:
                raise ValueError(f"expected PATTERN:CODES, got {text.strip()!r}")
            after_colon = True
        elif after_colon and _CODE.fullmatch(token):
            codes.append(token.upper())
        else:
            if codes:
                out.extend((pattern, tuple(codes)) for pattern in patterns)
                patterns, codes = [], []
            elif after_colon:
                raise ValueError(f"expected codes after {':'.join(patterns)!r}, got {token!r}")
            after_colon = False
            patterns.append(token)
    if patterns and not codes:
        raise ValueError(f"expected PATTERN:CODES, got {text.strip()!r}")
    out.extend((pattern, tuple(codes)) for pattern in patterns)
    return tuple((pattern, rule_selectors(codes)) for pattern, codes in out)


_CODE = re.compile(r"[A-Za-z]+[0-9]*")
