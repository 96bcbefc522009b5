"""Settings: defaults, then ``[tool.retracelint]`` in pyproject.toml or ``[retracelint]`` in setup.cfg, then flags.

The configuration file is found by walking up from the common parent of the given paths, as ruff and
flake8 do; the first directory holding a pyproject.toml with a ``[tool.retracelint]`` table or a setup.cfg
with a ``[retracelint]`` section wins.
"""

from __future__ import annotations

import configparser
import os
import re
import sys
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from retracelint.model import SEVERITIES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DEFAULT_EXCLUDES = (
    ".git",
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


OUTPUT_FORMATS = ("text", "json", "github", "sarif")


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
    disable_noqa: bool = False  # keep findings a `# noqa` covers (flake8 applies noqa itself)
    severity: str = SEVERITIES[0]  # the mildest severity shown
    config_file: str | None = field(default=None, compare=False)

    @property
    def base(self) -> str:
        """The folder that patterns in the configuration are relative to (as in flake8 and ruff)."""
        return (
            os.path.dirname(os.path.abspath(self.config_file)) if self.config_file else os.getcwd()
        )


_LIST_KEYS = {"select", "ignore", "extend_select", "exclude", "extend_exclude", "jit_wrappers"}
_BOOL_KEYS = {"respect_gitignore", "cache", "exit_zero", "statistics", "disable_noqa", "prescan"}
_INT_KEYS = {"max_file_size", "jobs"}
_STR_KEYS = {"cache_dir", "output_format"}
_CHOICES = {"output_format": OUTPUT_FORMATS, "severity": SEVERITIES}
_ALIASES = {"format": "output_format", "output-format": "output_format"}


def find_config(paths: list[str]) -> Path | None:
    """The nearest pyproject.toml / setup.cfg that configures retracelint, walking up from the paths."""
    existing = [os.path.abspath(p) for p in paths if p != "-" and os.path.exists(p)]
    start = Path(os.path.commonpath(existing)) if existing else Path.cwd()
    if start.is_file():
        start = start.parent
    for folder in (start, *start.parents):
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


def load(paths: list[str], explicit: str | None = None, isolated: bool = False) -> Settings:
    if isolated:
        return Settings()
    path = Path(explicit) if explicit else find_config(paths)
    if path is None:
        return Settings()
    if not path.is_file():
        raise ConfigError(f"{path}: configuration file not found")
    raw = _pyproject_table(path) if path.name.endswith(".toml") else _setup_cfg_section(path)
    return apply(Settings(config_file=str(path)), raw or {}, str(path))


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
    if name in _LIST_KEYS:
        return _as_list(value)
    if name in _BOOL_KEYS:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"expected true or false, got {value!r}")
    if name in _INT_KEYS:
        if isinstance(value, bool):
            raise ValueError(f"expected a number, got {value!r}")
        return int(value)  # type: ignore[arg-type]
    if name in _CHOICES:
        if str(value) not in _CHOICES[name]:
            raise ValueError(f"expected one of {', '.join(_CHOICES[name])}, got {value!r}")
        return str(value)
    if name in _STR_KEYS:
        return str(value)
    if name == "per_file_ignores":
        return parse_per_file_ignores(value)
    raise ValueError("unsupported option")


def _as_list(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        items = value.replace("\n", ",").split(",")
    elif isinstance(value, list | tuple):
        items = [str(v) for v in value]
    else:
        raise ValueError(f"expected a list of strings, got {value!r}")
    return tuple(item.strip() for item in items if item.strip())


def parse_per_file_ignores(value: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``{"tests/*" = ["RTL2"]}`` (TOML) or flake8's ``tests/*:RTL2,RTL3`` lines (setup.cfg, flag)."""
    out: list[tuple[str, tuple[str, ...]]] = []
    if isinstance(value, dict):
        for pattern, codes in value.items():
            out.append((str(pattern), _as_list(codes)))
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
    return tuple(out)


_CODE = re.compile(r"[A-Za-z]+[0-9]*")
