"""The rule catalogue as data: one entry per rule code.

The analysis emits evidence tagged with a rule code; everything a user reads about a rule (its name, its
one-line summary, the fix hint appended to messages, whether it is on by default) comes from here, and the
long form from the page ``rules/<CODE>.md``. Adding a rule means adding one entry here, the detection that
emits its code, and one page in ``rules/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    summary: str
    fix: str
    default: bool = True
    severity: str = "error"
    hint: str = ""  # the fix in a few words, ending a finding's headline

    @property
    def title(self) -> str:
        return f"{self.code} {self.name}"


RULES: tuple[Rule, ...] = (
    Rule(
        "RTL000",
        "cannot-analyse",
        "a file could not be read or parsed, or a call could not be followed, so it was not analysed",
        "fix the file or exclude it",
    ),
    Rule(
        "RTL100",
        "unused-noqa",
        "a `# noqa: RTL...` comment on a line where no such finding was suppressed",
        "remove the unused code from the noqa comment",
        default=False,
        severity="warning",
    ),
    Rule(
        "RTL101",
        "loop-varying-slice",
        "a traced argument is sliced with a bound that changes between calls",
        "pad to a fixed size or bucket the lengths",
        hint="pad or bucket it",
    ),
    Rule(
        "RTL102",
        "growing-accumulator",
        "an array or list grown in a loop is passed to a traced parameter",
        "preallocate a fixed-size buffer and write into it (or mask), or use lax.scan",
        hint="preallocate and mask",
    ),
    Rule(
        "RTL103",
        "ragged-last-batch",
        "fixed-size chunks whose last one can be short reach a traced parameter",
        "drop or pad the last batch (drop_last=True / drop_remainder=True)",
        severity="warning",  # one extra trace per length of the short last batch
        hint="drop or pad it",
    ),
    Rule(
        "RTL104",
        "data-dependent-shape",
        "a value whose shape depends on the data reaches a traced parameter",
        "keep the full shape and carry a mask, or use the size= argument",
        hint="mask it, or pass size=",
    ),
    Rule(
        "RTL105",
        "varying-size-constructor",
        "an array built with a size that changes between calls reaches a traced parameter",
        "build at a fixed maximum size and mask, or bucket the sizes",
        hint="pad to a fixed size",
    ),
    Rule(
        "RTL201",
        "loop-varying-static-arg",
        "a static parameter receives a value that changes between calls",
        "make the parameter traced (drop it from static_argnums/static_argnames)",
        hint="make it traced",
    ),
    Rule(
        "RTL202",
        "continuous-static-arg",
        "a static parameter receives a float that changes between calls",
        "pass the float as a traced argument (e.g. jnp.asarray(lr))",
        hint="pass it traced",
    ),
    Rule(
        "RTL203",
        "unhashable-static-arg",
        "a static parameter receives a list, dict, set, array or mutable dataclass",
        "pass a tuple, frozenset or frozen dataclass, or make the parameter traced",
        hint="pass a tuple or frozen dataclass",
    ),
    Rule(
        "RTL204",
        "identity-hashed-static-arg",
        "a static parameter receives a fresh object compared by identity",
        "create the object once and reuse it, or give it value-based __eq__ and __hash__",
        hint="create it once and reuse it",
    ),
    Rule(
        "RTL301",
        "jit-rebuilt-per-call",
        "jax.jit is applied to a fresh function object each time, so its cache starts empty",
        "hoist the jax.jit(...) out of the loop or function and reuse the jitted function",
        hint="build the jit once",
    ),
    Rule(
        "RTL302",
        "caches-cleared-per-step",
        "jax.clear_caches() runs repeatedly where jitted functions are called between clears",
        "clear the caches once, outside the loop, and only to free memory",
        hint="move it out of the loop",
    ),
    Rule(
        "RTL401",
        "weak-type-flip",
        "one traced parameter gets Python scalars at some call sites and arrays at others",
        "pass the same kind of value everywhere: always a Python scalar, or always an array with an"
        " explicit dtype",
        severity="warning",
        hint="pass one kind of value",
    ),
    Rule(
        "RTL402",
        "dtype-flip",
        "one traced parameter gets different dtypes across call sites",
        "cast at the boundary so every call passes one dtype (x.astype(jnp.float32))",
        severity="warning",
        hint="cast to one dtype",
    ),
    Rule(
        "RTL403",
        "pytree-structure-change",
        "one traced parameter gets pytrees of different structure across call sites",
        "keep one structure: zeros or a mask instead of None, the same dict keys, one container type",
        severity="warning",
        hint="keep one pytree structure",
    ),
    Rule(
        "RTL404",
        "arg-by-keyword-and-position",
        "the same parameter is passed positionally at one call and by keyword at another",
        "pass the argument the same way at every call, preferably by keyword",
        severity="warning",
        hint="pass it one way",
    ),
    Rule(
        "RTL405",
        "trace-context-flip",
        "a jitted function is called inside and outside a context that is part of its trace cache key",
        "call it under one setting everywhere: set the option once (jax.config.update) or pass it to"
        " the operation (precision=...) instead of a context around some calls",
        severity="warning",
        hint="use one setting",
    ),
    Rule(
        "RTL901",
        "unpredicted-retrace",
        "a re-trace seen at run time by `retracelint confirm` at a site the static pass did not flag",
        "read the evidence: it names the argument that changed",
        default=False,
    ),
)

RULES_BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}


def rule(code: str) -> Rule:
    return RULES_BY_CODE[code]


def _catalog() -> Traversable | None:
    """Where the rule pages are: inside the installed package, or ``rules/`` in a source checkout."""
    try:
        installed = resources.files("retracelint.catalog")
        if installed.joinpath("RTL101.md").is_file():
            return installed
    except ModuleNotFoundError:
        pass
    checkout = Path(__file__).resolve().parent.parent / "rules"
    return checkout if checkout.is_dir() else None


@cache
def page(code: str) -> str | None:
    """The Markdown page of a rule, or None when the page is missing."""
    folder = _catalog()
    if folder is None:
        return None
    path = folder.joinpath(f"{code}.md")
    return path.read_text(encoding="utf-8") if path.is_file() else None


def page_url(code: str) -> str:
    return f"https://github.com/retracelint/retracelint/blob/main/rules/{code}.md"
