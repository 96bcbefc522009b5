"""Aliases of jit wrappers that one module defines and others import.

``pmap = functools.partial(jax.pmap, axis_name="i")`` in ``constants.py``, used elsewhere as
``@functools.partial(constants.pmap, donate_argnums=0)`` or ``from .constants import pmap``, is
``jax.pmap`` wherever it is used: its functions are jit sites, and what runs under them runs only
while they trace. A module's own aliases are known while it is summarised (``summarise.module``);
those of another module are known only once that module is summarised, so the modules that import
them are summarised again with them (``engine.summarise_all``), cached under a key salted with the
aliases they were given (``alias_salt``): an edit of the alias makes a new key, never a stale summary.
"""

from __future__ import annotations

from collections.abc import Iterable

from retracelint.discover import ImportLayout
from retracelint.jitspec import Wrapper
from retracelint.summary import ModuleSummary


def alias_table(
    summaries: Iterable[ModuleSummary], layout: ImportLayout | None
) -> dict[str, Wrapper]:
    """Every alias the project defines, by each dotted name (of module keys) it can be imported as:
    where it is bound, and where a module imports it again (``from .constants import pmap`` in a
    package's ``__init__`` makes ``pkg.pmap`` the same wrapper)."""
    modules = sorted(summaries, key=lambda s: s.module)
    table = {f"{s.module}.{name}": w for s in modules for name, w in s.wrapper_aliases}
    if not table:
        return table
    keys = {s.module for s in modules}
    imports = [
        (f"{s.module}.{local}", _resolved(s.module, target, keys, layout))
        for s in modules
        for local, target in sorted(s.imports.items())
    ]
    while True:  # ends: each round adds names, of a finite set, or stops
        added = {name: table[target] for name, target in imports if target in table}
        added = {name: w for name, w in added.items() if name not in table}
        if not added:
            return table
        table.update(added)


def imported_aliases(
    summary: ModuleSummary,
    table: dict[str, Wrapper],
    keys: set[str],
    layout: ImportLayout | None,
) -> dict[str, Wrapper]:
    """The aliases of other modules that ``summary``'s imports may name, by the dotted name its
    code spells them with: the alias itself (``from .constants import pmap``) or an attribute of a
    module it imports (``from . import constants``, ``import pkg.constants as constants``)."""
    if not table:
        return {}
    own = f"{summary.module}."
    out: dict[str, Wrapper] = {}
    for target in sorted(set(summary.imports.values())):
        found = _resolved(summary.module, target, keys, layout)
        if found is None:
            continue
        for name, wrapper in table.items():
            attribute = name[len(found) + 1 :] if name.startswith(f"{found}.") else None
            # An alias itself, or an attribute of the module imported (not of a module below it:
            # a plain `import jax` would reach every alias in jax's own modules).
            if not name.startswith(own) and (name == found or (attribute and "." not in attribute)):
                out[target + name[len(found) :]] = wrapper
    return dict(sorted(out.items()))


def _resolved(
    importer: str, dotted: str, keys: set[str], layout: ImportLayout | None
) -> str | None:
    """``dotted``, imported in module ``importer``, named by module keys: its longest prefix that
    is a module of the project, by that module's key, then the rest (attributes); None when no
    prefix is a module of the project."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        prefix = ".".join(parts[:cut])
        key = layout.module(importer, prefix) if layout is not None else prefix
        if key in keys:
            return ".".join([key, *parts[cut:]])
    return None


def alias_salt(aliases: dict[str, Wrapper]) -> bytes:
    """What a summary made with ``aliases`` depends on beyond its file's bytes."""
    return repr(sorted(aliases.items())).encode("utf-8", "surrogateescape")
